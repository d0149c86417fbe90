// Provider paths that exist but cannot be used, as containers and CI runners produce them: a symbolic link loop, a
// directory this user may not enter, a file where a directory should be, a noexec mount. Each must be reported as what
// it is, both where Parameterize resolves the path and where the provider is launched, never as "not found".
//
// Root passes every permission check, so the denied directory is tried in a child that runs without CAP_DAC_OVERRIDE
// and CAP_DAC_READ_SEARCH (util-linux setpriv drops them from its bounding set, leaving a root that obeys file modes,
// as a container's non-root user does); the noexec mount needs root to mount a tmpfs. Each says why when it skips.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parameterize, ParameterizeError } from "../../src/parameterize/index.js";
import { LaunchError } from "../../src/terraform/errors.js";
import { launchProvider } from "../../src/terraform/launch.js";
import { peerPath, repoRoot } from "../support/peers.js";

const scratch = mkdtempSync(join(tmpdir(), "tfbridge-paths-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const isRoot = process.getuid?.() === 0;

/** What Parameterize (by args) and launching say about `path`. */
async function bothRefusals(path: string): Promise<{ kind: string | undefined; parameterize: string; launch: string }> {
  const p = await parameterize({ kind: "args", args: [path] }, { cwd: scratch }).then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  const l = await launchProvider({ path }).then(
    async (launched) => {
      await launched.shutdown();
      return undefined;
    },
    (e: unknown) => e as Error,
  );
  expect(p).toBeInstanceOf(ParameterizeError);
  expect(l).toBeInstanceOf(LaunchError);
  return { kind: (p as ParameterizeError).kind, parameterize: p!.message, launch: l!.message };
}

describe("a symbolic link loop (ELOOP)", () => {
  it("two links pointing at each other: names the loop, not 'not found'", async () => {
    const dir = join(scratch, "loop");
    mkdirSync(dir);
    const path = join(dir, "terraform-provider-random");
    symlinkSync("other", path);
    symlinkSync("terraform-provider-random", join(dir, "other"));
    const r = await bothRefusals(path);
    const said = `${path} is a symbolic link loop (${path} → ${join(dir, "other")} → ${path}): following its links never reaches a file (ELOOP). Point the link at the provider executable, or give the executable's own path`;
    expect(r.kind).toBe("failed-precondition");
    expect(r.parameterize).toBe(`cannot use the Terraform provider binary: ${said}`);
    expect(r.launch).toBe(`cannot launch the Terraform provider: ${said}`);
  });

  it("a loop in a directory above it: says ELOOP without a chain", async () => {
    const dir = join(scratch, "dirloop");
    mkdirSync(dir);
    symlinkSync("d", join(dir, "d"));
    const path = join(dir, "d", "terraform-provider-random");
    const r = await bothRefusals(path);
    expect(r.parameterize).toBe(`cannot use the Terraform provider binary: ${path} is a symbolic link loop: following its links never reaches a file (ELOOP). Point the link at the provider executable, or give the executable's own path`);
  });

  it("an SDK whose recorded path became a loop: says so, not that the provider was moved or deleted", async () => {
    const dir = join(scratch, "recorded");
    mkdirSync(dir);
    const path = join(dir, "terraform-provider-random");
    symlinkSync("terraform-provider-random", path);
    const value = JSON.stringify({ local: { path }, includes: ["random_pet"] });
    const e = await parameterize({ kind: "value", name: "random", version: "0.0.0", value: Buffer.from(value) }, { cwd: scratch }).then(
      () => undefined,
      (err: unknown) => err as ParameterizeError,
    );
    expect(e?.kind).toBe("failed-precondition");
    expect(e?.message).toBe(`cannot use the Terraform provider binary: ${path} is a symbolic link loop (${path} → ${path}): following its links never reaches a file (ELOOP). Point the link at the provider executable, or give the executable's own path`);
  });
});

describe("a file where a directory should be (ENOTDIR)", () => {
  it("names the file on the way", async () => {
    const file = join(scratch, "plugins");
    writeFileSync(file, "not a directory\n");
    const path = join(file, "terraform-provider-random");
    const r = await bothRefusals(path);
    expect(r.kind).toBe("failed-precondition");
    expect(r.parameterize).toBe(`cannot use the Terraform provider binary: ${path} cannot be reached: ${file} is a file, not a directory (ENOTDIR). Fix the path`);
    expect(r.launch).toBe(`cannot launch the Terraform provider: ${path} cannot be reached: ${file} is a file, not a directory (ENOTDIR). Fix the path`);
  });
});

/**
 * Runs Parameterize's and launch's path checks on `path` in a child that obeys file modes, printing what each said.
 * As root the child drops CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH; undefined when it may not.
 */
function refusalsObeyingModes(path: string): { parameterize: string; launch: string } | { skipped: string } {
  const prefix = isRoot ? ["setpriv", "--bounding-set=-dac_override,-dac_read_search", "--"] : [];
  if (isRoot) {
    const probe = spawnSync(prefix[0]!, [...prefix.slice(1), "true"], { encoding: "utf8" });
    if (probe.status !== 0) return { skipped: `this root process may not drop CAP_DAC_OVERRIDE with setpriv: ${probe.error?.message ?? probe.stderr.trim()}` };
  }
  const program = `
    const { resolveLocalBinary } = await import(${JSON.stringify(join(repoRoot, "src/parameterize/local.ts"))});
    const { launchProvider } = await import(${JSON.stringify(join(repoRoot, "src/terraform/launch.ts"))});
    const said = {};
    try { resolveLocalBinary(${JSON.stringify(path)}); said.parameterize = "accepted"; } catch (e) { said.parameterize = e.message; }
    try { await (await launchProvider({ path: ${JSON.stringify(path)} })).shutdown(); said.launch = "launched"; } catch (e) { said.launch = e.message; }
    console.log(JSON.stringify(said));`;
  const args = ["--import", join(repoRoot, "node_modules/tsx/dist/loader.mjs"), "--input-type=module", "-e", program];
  const out = execFileSync(prefix[0] ?? process.execPath, prefix.length > 0 ? [...prefix.slice(1), process.execPath, ...args] : args, { encoding: "utf8" });
  return JSON.parse(out.trim().split("\n").pop()!) as { parameterize: string; launch: string };
}

describe("a directory this user may not enter (EACCES)", () => {
  it("names the directory and what to do, not 'not found'", (ctx) => {
    const locked = join(scratch, "locked");
    mkdirSync(locked);
    const path = join(locked, "terraform-provider-random");
    copyFileSync(peerPath("random"), path);
    chmodSync(locked, 0o600);
    try {
      const r = refusalsObeyingModes(path);
      if ("skipped" in r) return ctx.skip(r.skipped);
      const said = new RegExp(
        `${path} cannot be reached: this user \\(uid \\d+\\) may not enter the directory ${locked} \\(EACCES: it lacks search \\(x\\) permission for this user\\)\\. Run \`chmod a\\+x ${locked}\`, or put the provider where this user can read it$`,
      );
      expect(r.parameterize).toMatch(new RegExp(`^cannot use the Terraform provider binary: ${said.source}`));
      expect(r.launch).toMatch(new RegExp(`^cannot launch the Terraform provider: ${said.source}`));
    } finally {
      chmodSync(locked, 0o700);
    }
  }, 60_000);
});

describe("an executable on a noexec mount", () => {
  it("says the mount forbids it, instead of advising chmod +x", async (ctx) => {
    const dir = join(scratch, "noexec");
    mkdirSync(dir);
    try {
      execFileSync("mount", ["-t", "tmpfs", "-o", "noexec,size=64m", "tmpfs", dir], { stdio: "pipe" });
    } catch (e) {
      return ctx.skip(`this process may not mount a tmpfs: ${(e as Error).message.split("\n")[0]}`);
    }
    try {
      const path = join(dir, "terraform-provider-random");
      copyFileSync(peerPath("random"), path);
      chmodSync(path, 0o755);
      const r = await bothRefusals(path);
      const said = `${path} cannot be executed: the file system at ${dir} is mounted noexec, so no chmod helps. Put the provider on another file system, or remount it with exec`;
      expect(r.kind).toBe("failed-precondition");
      expect(r.parameterize).toBe(said);
      expect(r.launch).toBe(`${said}, or point at the provider executable.`);
    } finally {
      execFileSync("umount", [dir]);
    }
  }, 60_000);
});
