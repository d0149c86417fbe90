// The engine-kill fault matrix: `pulumi up`/`destroy` of many httpapi items (a real SDKv2 provider and the real
// loopback service it manages, which counts every object) stopped by SIGKILL, SIGTERM or Ctrl-C at a chosen moment of
// the plan, create, update or delete; then what a user does (`pulumi cancel` for the stale lock, `pulumi refresh` with
// the pending creates imported or cleared, the command again), and what is left: processes, objects the stack lost,
// duplicates. Used by test/e2e/engine-kill.test.ts (a few cases) and bench/faults-kill.bench.ts (the whole matrix).
import { spawn } from "node:child_process";
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ExportedResource } from "./e2e.js";
import { sandboxProcesses, waitNoSandboxProcesses } from "./e2e.js";
import type { HttpApiServer } from "./httpapi.js";
import { YamlScenario, type Deployment } from "./lifecycle.js";
import { pulumiCommand, type PulumiSandbox, type RunResult } from "./pulumi.js";

export type KillSignal = "SIGKILL" | "SIGTERM" | "SIGINT";
export type KillPhase = "plan" | "create" | "update" | "delete";

/** Where to stop the engine: in `phase`, once the service has seen `at` writes of that kind (plan: `at` ms into the preview). */
export interface KillCase {
  signal: KillSignal;
  phase: KillPhase;
  at: number;
}

export interface KillOutcome {
  case: KillCase;
  /** The service's counters when the signal went out. */
  killedAt: { creates: number; updates: number; deletes: number };
  /** Our plugin's and Terraform providers' processes still alive 5 s after the engine stopped. */
  processesLeft: string[];
  /**
   * Pulumi's YAML language host still alive then: it is the engine's child, not ours, and outlives a SIGKILLed engine
   * (counted for the report, then ended so that it does not pile up).
   */
  languageHostsLeft: number;
  /**
   * Objects in the service that the stopped stack accounts for in no way, counted before any recovery step: neither a
   * resource of its state nor a pending create of the stopped run. Only a create in flight when the stop came can be
   * one (so at most PARALLEL); after a SIGKILL none (the engine records a create as pending before it starts it).
   */
  unaccounted: number;
  /** Objects in the service that the stack still does not know after recovery, and names held by more than one object. */
  lost: number;
  duplicates: number;
  /** Objects the program asks for that are missing, or state entries whose object is gone, after recovery. */
  missing: number;
  ghosts: number;
  /** From the signal to a converged stack (cancel, refresh, the command again), in ms. */
  recoveryMs: number;
  /** Creates the engine had begun and never heard back from (pending operations of the stopped run). */
  pendingCreates: number;
  /**
   * Objects in the service the stack did not know after the refresh, adopted with `pulumi import`: at most the pending
   * creates after a kill; after Cancel, the creates whose answer the provider gave up on; none when nothing was created.
   */
  adopted: number;
  /** What recovery had to do, for the report: "cancel", "import 3", "clear 1". */
  recovery: string[];
  /** Objects left in the service after the final `pulumi destroy` (must be 0). */
  leftAfterDestroy: number;
}

const ITEM = "httpapi:index/item:Item";

/** The engine's parallelism in every run: the bound on creates in flight when the stop comes. */
export const PARALLEL = 10;

function program(prefix: string, count: number, size: number): string {
  const lines = ["resources:"];
  for (let i = 0; i < count; i++) {
    lines.push(`  item${i}:`, `    type: ${ITEM}`, "    properties:", `      name: ${prefix}-${i}`, `      size: ${size}`);
  }
  return lines.join("\n");
}

/** `pulumi ARGS` in its own process group (a terminal's Ctrl-C reaches the whole group), stopped by `signal` when `when` says. */
function runUntil(s: YamlScenario, args: string[], signal: KillSignal, when: (stdout: string) => Promise<boolean>): Promise<RunResult & { signalled: boolean }> {
  return new Promise((resolve, reject) => {
    const [exe, argv] = pulumiCommand(args);
    const child = spawn(exe, argv, { cwd: s.dir, env: s.env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let stdout = "";
    let stderr = "";
    let signalled = false;
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const poll = setInterval(() => {
      if (signalled) return;
      void when(stdout).then((now) => {
        if (!now || signalled || child.exitCode !== null) return;
        signalled = true;
        // Ctrl-C goes to the terminal's foreground group; the engine starts its plugins in groups of their own.
        if (signal === "SIGINT") process.kill(-child.pid!, "SIGINT");
        else child.kill(signal);
      });
    }, 25);
    const timer = setTimeout(() => child.kill("SIGKILL"), 300_000);
    child.once("error", reject);
    child.once("close", (code) => {
      clearInterval(poll);
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr, signalled });
    });
  });
}

const items = (d: Deployment): ExportedResource[] => (d.resources ?? []).filter((r) => r.type === ITEM);

interface PendingOperation {
  type: string;
  resource: ExportedResource;
}

/**
 * One case on a fresh stack: set the stage, stop the engine at the moment, recover as a user would, check the service
 * against the stack, destroy. `count` items; the service delays each write by `delayMs` so that some are in flight.
 */
export async function runKillCase(sandbox: PulumiSandbox, api: HttpApiServer, c: KillCase, count = 50, delayMs = 60): Promise<KillOutcome> {
  const name = `kill-${c.phase}-${c.signal.toLowerCase()}-${c.at}`;
  const prefix = `${name}-${Date.now().toString(36)}`;
  const s = await YamlScenario.create(sandbox, name, ["httpapi"], { HTTPAPI_ENDPOINT: api.url, HTTPAPI_TOKEN: api.token });
  const ours = (r: { name: string }): boolean => r.name.startsWith(`${prefix}-`);
  const before = async (): Promise<{ creates: number; updates: number; deletes: number }> => {
    const st = await api.stats();
    return { creates: st["creates"] ?? 0, updates: st["updates"] ?? 0, deletes: st["deletes"] ?? 0 };
  };

  // The stage: update and delete start from a deployed stack.
  s.program(program(prefix, count, 1));
  if (c.phase === "update" || c.phase === "delete") await s.ok(["up", "--yes", "--skip-preview"]);
  const command = [...(c.phase === "delete" ? ["destroy", "--yes", "--skip-preview"] : c.phase === "plan" ? ["up", "--yes"] : ["up", "--yes", "--skip-preview"]), "--parallel", String(PARALLEL)];
  if (c.phase === "update") s.program(program(prefix, count, 2));

  const base = await before();
  const hostsBefore = new Set(sandboxProcesses(sandbox, "pulumi-language-yaml").map((p) => p.pid));
  await api.setFaults({ delay_ms: delayMs });
  let killedAt = base;
  let previewSince: number | undefined;
  const run = await runUntil(s, command, c.signal, async (stdout) => {
    const now = await before();
    killedAt = { creates: now.creates - base.creates, updates: now.updates - base.updates, deletes: now.deletes - base.deletes };
    if (c.phase === "plan") {
      if (!stdout.includes("Previewing update")) return false;
      previewSince ??= Date.now();
      return Date.now() - previewSince >= c.at || /Updating \(/.test(stdout);
    }
    const done = c.phase === "create" ? killedAt.creates : c.phase === "update" ? killedAt.updates : killedAt.deletes;
    return done >= c.at;
  });
  const stoppedAt = Date.now();
  await api.clearFaults();
  if (!run.signalled) throw new Error(`${name}: the command ended before the moment came (${JSON.stringify(killedAt)}):\n${run.stdout}\n${run.stderr}`);

  const processesLeft: string[] = [];
  for (const needle of ["pulumi-resource-terraform-provider", "terraform-provider-httpapi"]) {
    for (const p of await waitNoSandboxProcesses(sandbox, needle, 5_000)) processesLeft.push(p.cmd);
  }
  const hosts = sandboxProcesses(sandbox, "pulumi-language-yaml").filter((p) => !hostsBefore.has(p.pid));
  for (const h of hosts) process.kill(h.pid, "SIGKILL");

  // Recovery, as docs/reliability.md tells a user.
  const recovery: string[] = [];
  // The file backend writes each blob's `.attrs` sidecar in place (gocloud fileblob), so a kill in the middle of a
  // checkpoint can leave it empty, and every command then fails with "failed to load checkpoint: EOF". An empty
  // sidecar holds nothing; removing it brings the checkpoint back.
  const stackDir = join(sandbox.backend, ".pulumi", "stacks", name);
  for (const f of existsSync(stackDir) ? readdirSync(stackDir) : []) {
    if (f.endsWith(".attrs") && statSync(join(stackDir, f)).size === 0) {
      rmSync(join(stackDir, f));
      recovery.push(`remove empty ${f}`);
    }
  }
  // What the stopped stack accounts for, before any recovery step: its resources and its pending creates (by name:
  // a create that never answered has no id in the stack).
  const stopped = await s.deployment();
  const pending = (stopped.pending_operations ?? []) as PendingOperation[];
  const creating = pending.filter((p) => p.type === "creating");
  const stoppedIds = new Set(items(stopped).map((r) => r.id));
  const pendingNames = new Set(creating.map((p) => p.resource.inputs?.["name"]).filter((n): n is string => typeof n === "string"));
  const unaccounted = (await api.items()).filter((i) => ours(i) && !stoppedIds.has(i.id) && !pendingNames.has(i.name)).length;
  const refresh = ["refresh", "--yes", "--skip-preview", ...(creating.length > 0 ? ["--clear-pending-creates"] : [])];
  let refreshed = await s.pulumi(refresh);
  if (/currently locked/.test(refreshed.stdout + refreshed.stderr)) {
    // The engine died holding the stack's lock.
    recovery.push("cancel");
    await s.ok(["cancel", "--yes"]);
    refreshed = await s.pulumi(refresh);
  }
  if (refreshed.code !== 0) throw new Error(`${name}: ${refresh.join(" ")} after the ${c.signal} failed:\n${refreshed.stdout}\n${refreshed.stderr}`);
  if (creating.length > 0) recovery.push(`clear ${creating.length}`);
  // Objects the stack does not know: creates the engine never heard back from (pending creates), and creates whose
  // answer the provider gave up on when Cancel stopped it (the service had stored the object already). A user finds
  // them in the service (or by the "already exists" of the next `pulumi up`) and adopts them under their names.
  const known = new Set(items(await s.deployment()).map((r) => r.id));
  const adopt = (await api.items())
    .filter((i) => ours(i) && !known.has(i.id))
    .map((i) => ({ type: ITEM, name: `item${i.name.slice(prefix.length + 1)}`, id: i.id }));
  if (adopt.length > 0) {
    recovery.push(`import ${adopt.length}`);
    const file = join(s.dir, "adopt.json");
    writeFileSync(file, JSON.stringify({ resources: adopt }));
    await s.ok(["import", "--file", file, "--yes", "--protect=false", "--generate-code=false", "--skip-preview"]);
  }
  // KILL_DEBUG=1 shows what the stopped run printed and what recovery found.
  if (process.env["KILL_DEBUG"]) console.log(name, JSON.stringify({ pending: pending.map((p) => [p.type, p.resource.urn]), recovery }), `\n${run.stdout.slice(-6000)}${run.stderr.slice(-2000)}`);
  await s.ok(c.phase === "delete" ? ["destroy", "--yes", "--skip-preview"] : ["up", "--yes", "--skip-preview"]);
  const recoveryMs = Date.now() - stoppedAt;

  // The stack against the service.
  const state = items(await s.deployment());
  const service = (await api.items()).filter(ours);
  const stateIds = new Set(state.map((r) => r.id));
  const serviceIds = new Set(service.map((i) => i.id));
  const names = new Map<string, number>();
  for (const i of service) names.set(i.name, (names.get(i.name) ?? 0) + 1);
  const want = c.phase === "delete" ? 0 : count;
  const outcome: KillOutcome = {
    case: c,
    killedAt,
    processesLeft,
    languageHostsLeft: hosts.length,
    pendingCreates: creating.length,
    adopted: adopt.length,
    unaccounted,
    lost: service.filter((i) => !stateIds.has(i.id)).length,
    duplicates: [...names.values()].filter((n) => n > 1).reduce((a, n) => a + n - 1, 0),
    missing: Math.max(0, want - names.size),
    ghosts: state.filter((r) => !serviceIds.has(r.id ?? "")).length,
    recoveryMs,
    recovery,
    leftAfterDestroy: 0,
  };
  if (c.phase === "update") {
    const stale = service.filter((i) => i.size !== 2).length;
    if (stale > 0) outcome.missing += stale;
  }
  await s.ok(["destroy", "--yes", "--skip-preview"]);
  outcome.leftAfterDestroy = (await api.items()).filter(ours).length;
  return outcome;
}

/** The cases of the full matrix: `moments` spread over plan, create, update and delete, for each signal. */
export function killMatrix(signals: KillSignal[], moments: number, count = 50): KillCase[] {
  const cases: KillCase[] = [];
  const perPhase: Record<KillPhase, number> = { plan: Math.max(1, Math.round(moments / 8)), create: 0, update: 0, delete: 0 };
  const rest = moments - perPhase.plan;
  perPhase.create = Math.ceil(rest / 3);
  perPhase.update = Math.ceil((rest - perPhase.create) / 2);
  perPhase.delete = rest - perPhase.create - perPhase.update;
  for (const signal of signals) {
    for (let i = 0; i < perPhase.plan; i++) cases.push({ signal, phase: "plan", at: 200 + i * 300 });
    for (const phase of ["create", "update", "delete"] as const) {
      const n = perPhase[phase];
      // Spread from before the first write to one before the last (later, the command may end before the signal).
      for (let i = 0; i < n; i++) cases.push({ signal, phase, at: n === 1 ? Math.floor(count / 2) : Math.round((i * (count - 2)) / (n - 1)) });
    }
  }
  return cases;
}

/** The report: one line per case, then per signal the totals. */
export function killReport(outcomes: KillOutcome[]): string {
  const rows = [["signal", "phase", "at", "killed at c/u/d", "left", "hosts left", "pending creates", "unaccounted", "adopted", "lost", "dup", "missing", "ghosts", "recovery", "recovery ms"]];
  for (const o of outcomes) {
    rows.push([
      o.case.signal,
      o.case.phase,
      String(o.case.at),
      `${o.killedAt.creates}/${o.killedAt.updates}/${o.killedAt.deletes}`,
      String(o.processesLeft.length),
      String(o.languageHostsLeft),
      String(o.pendingCreates),
      String(o.unaccounted),
      String(o.adopted),
      String(o.lost),
      String(o.duplicates),
      String(o.missing),
      String(o.ghosts),
      o.recovery.join(", ") || "-",
      String(o.recoveryMs),
    ]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]): string => r.map((c, i) => c.padEnd(widths[i]!)).join("  ");
  const out = rows.map(line);
  out.push("");
  for (const signal of [...new Set(outcomes.map((o) => o.case.signal))]) {
    const os = outcomes.filter((o) => o.case.signal === signal);
    const sum = (f: (o: KillOutcome) => number): number => os.reduce((a, o) => a + f(o), 0);
    out.push(
      `${signal}: ${os.length} runs, unaccounted at the stop ${sum((o) => o.unaccounted)}, adopted ${sum((o) => o.adopted)} (pending creates ${sum((o) => o.pendingCreates)}), objects lost after recovery ${sum((o) => o.lost)}, duplicates ${sum((o) => o.duplicates)}, missing ${sum((o) => o.missing)}, ` +
        `processes left ${sum((o) => o.processesLeft.length)} (Pulumi's language hosts ${sum((o) => o.languageHostsLeft)}), left after destroy ${sum((o) => o.leftAfterDestroy)}, max recovery ${Math.max(...os.map((o) => o.recoveryMs))} ms`,
    );
  }
  return out.join("\n");
}
