// The one way the commands run the Pulumi CLI (which executable: `PULUMI_CLI`, else `pulumi` on PATH; always
// non-interactive; what it says when the CLI cannot be started) and any other program they start.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { track, unlessStopping } from "./interrupt.js";
import { UsageError } from "./usage.js";

export interface PulumiRun {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Goes to the CLI's stdin (a secret value: never on a command line, where other processes see it). */
  input?: string;
  /** The CLI's output goes to ours, for the user to follow, instead of being captured. */
  inherit?: boolean;
  /** Each line of the CLI's output as it comes (captured as well), for a command that sorts what the user sees. */
  onLine?: (line: string, stream: "stdout" | "stderr") => void;
}

export interface PulumiResult {
  code: number;
  /** Empty when the output was inherited. */
  stdout: string;
  stderr: string;
}

/** The Pulumi CLI the commands run: `PULUMI_CLI` names another than `pulumi` on PATH. */
export function pulumiExecutable(env: NodeJS.ProcessEnv = process.env): string {
  const named = env["PULUMI_CLI"];
  return named !== undefined && named !== "" ? named : "pulumi";
}

/**
 * Runs `file ARGS` as every child of a command runs: stopped with the command, whole tree and all (interrupt.ts), its
 * output captured (or inherited, or handed over line by line); resolves with its exit code (128 when a signal ended it),
 * and rejects only when it cannot be started.
 */
export function runTracked(file: string, args: readonly string[], run: PulumiRun = {}): Promise<PulumiResult> {
  return new Promise((done, fail) => {
    const stdin = run.input !== undefined ? "pipe" : run.inherit === true ? "inherit" : "ignore";
    const child = spawn(file, args, { cwd: run.cwd, env: run.env ?? process.env, stdio: run.inherit === true ? [stdin, "inherit", "inherit"] : [stdin, "pipe", "pipe"] });
    track(child);
    let stdout = "";
    let stderr = "";
    child.stdout?.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr?.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    if (run.onLine !== undefined && child.stdout !== null && child.stderr !== null) {
      const onLine = run.onLine;
      createInterface({ input: child.stdout, crlfDelay: Infinity }).on("line", (l) => onLine(l, "stdout"));
      createInterface({ input: child.stderr, crlfDelay: Infinity }).on("line", (l) => onLine(l, "stderr"));
    }
    if (run.input !== undefined) child.stdin?.end(run.input);
    child.once("error", fail);
    // A child stopped with the command has no result to act on: the command goes no further (interrupt.ts ends it).
    child.once("close", (code, signal) => void unlessStopping().then(() => done({ code: code ?? (signal ? 128 : 1), stdout, stderr })));
  });
}

/**
 * Runs `pulumi --non-interactive ARGS` through runTracked. A CLI that cannot be started is a UsageError saying how to
 * install it or name it.
 */
export async function runPulumi(args: readonly string[], run: PulumiRun = {}): Promise<PulumiResult> {
  const exe = pulumiExecutable(run.env ?? process.env);
  try {
    return await runTracked(exe, ["--non-interactive", ...args], run);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw err.code === "ENOENT"
      ? new UsageError(`\`${exe}\` is not on PATH; install the Pulumi CLI (https://www.pulumi.com/docs/install/), add it to PATH, or name it with PULUMI_CLI`)
      : new UsageError(`cannot run ${exe}: ${err.message}`);
  }
}
