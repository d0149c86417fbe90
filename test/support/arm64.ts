// Running linux-arm64 programs on an amd64 Linux machine through QEMU user-mode emulation: whether this machine can,
// the environment it takes, AArch64 builds of the pinned peers, and how to tell an emulated process from a native one.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { toolMissing } from "./tool-missing.js";
import { pins } from "./peers.js";
import { execAsync } from "./processes.js";

/** What makes a Debian or Ubuntu amd64 machine run arm64 executables (.ci/run does this as root). */
export const ARM64_EMULATION_SETUP =
  "as root: apt-get install qemu-user-static binfmt-support libc6-arm64-cross libstdc++6-arm64-cross libgcc-s1-arm64-cross; " +
  "mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc (unless mounted); update-binfmts --enable qemu-aarch64 (or run bash .ci/run, which does all this)";

/** Where Debian's cross packages (libc6-arm64-cross and friends) put the arm64 loader and libraries. */
const CROSS_ROOT = "/usr/aarch64-linux-gnu";
const BINFMT_ENTRY = "/proc/sys/fs/binfmt_misc/qemu-aarch64";

/**
 * The environment an arm64 dynamically linked program (the Node inside our executable) needs here, or why this
 * machine cannot run one. The kernel hands AArch64 ELF files to qemu-aarch64 through binfmt_misc; their loader and C
 * libraries come from Debian's multiarch packages (/lib/ld-linux-aarch64.so.1, nothing to set) or from its cross
 * packages under /usr/aarch64-linux-gnu, which qemu finds through QEMU_LD_PREFIX (inherited by every process the
 * engine starts; statically linked Go providers need neither).
 */
export function arm64Emulation(): { env: Record<string, string> } | { missing: string } {
  let entry = "";
  try {
    entry = readFileSync(BINFMT_ENTRY, "utf8");
  } catch {
    return { missing: `the kernel has no binfmt_misc entry for AArch64 (${BINFMT_ENTRY})` };
  }
  if (!/^enabled$/m.test(entry)) return { missing: `the binfmt_misc entry ${BINFMT_ENTRY} is disabled` };
  const interpreter = /^interpreter (\S+)$/m.exec(entry)?.[1];
  if (interpreter === undefined || !existsSync(interpreter)) return { missing: `the AArch64 binfmt_misc interpreter ${interpreter ?? "(none)"} is not installed` };
  const libs = ["libc.so.6", "libstdc++.so.6", "libgcc_s.so.1"];
  if (existsSync("/lib/ld-linux-aarch64.so.1") && libs.every((l) => existsSync(join("/lib/aarch64-linux-gnu", l)) || existsSync(join("/usr/lib/aarch64-linux-gnu", l)))) {
    return { env: {} };
  }
  if (existsSync(join(CROSS_ROOT, "lib/ld-linux-aarch64.so.1")) && libs.every((l) => existsSync(join(CROSS_ROOT, "lib", l)))) {
    return { env: { QEMU_LD_PREFIX: CROSS_ROOT } };
  }
  return { missing: `no arm64 C and C++ runtime libraries (neither ${CROSS_ROOT}/lib nor /lib/aarch64-linux-gnu has ${libs.join(", ")})` };
}

/** True, with the reason and the setup printed, when arm64 programs cannot run here; in CI it throws instead. */
export function arm64EmulationMissing(env: NodeJS.ProcessEnv = process.env, probe: typeof arm64Emulation = arm64Emulation): boolean {
  const e = probe();
  return toolMissing("missing" in e ? e.missing : undefined, { tests: "the linux-arm64 test", install: ARM64_EMULATION_SETUP, verb: "Set it up" }, env);
}

/** The ELF machine of an executable (e_machine: 0x3E x86-64, 0xB7 AArch64); undefined when it is no 64-bit little-endian ELF file. */
export function elfMachine(file: string): number | undefined {
  const head = readFileSync(file).subarray(0, 20);
  if (head.length < 20 || !head.subarray(0, 4).equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46])) || head[4] !== 2 || head[5] !== 1) return undefined;
  return head.readUInt16LE(18);
}
export const EM_AARCH64 = 0xb7;

/**
 * The program the kernel runs for process `pid`: for an arm64 executable started through binfmt_misc this is QEMU
 * (the registered interpreter, e.g. /usr/bin/qemu-aarch64-static), not the file that was executed.
 */
export function processImage(pid: number): string {
  return readlinkSync(`/proc/${pid}/exe`);
}

/**
 * A pinned peer (test/peers/pins.json, a module pin) cross-compiled for linux/arm64 with Go (CGO_ENABLED=0: a static
 * executable), built once into the peer cache beside its native build. `go install` cannot write a cross-compiled
 * binary to GOBIN, so it installs into a GOPATH of its own (bin/linux_arm64/), sharing the module cache.
 */
export async function arm64Peer(name: string): Promise<string> {
  const pin = pins[name];
  if (pin?.module === undefined || pin.version === undefined) throw new Error(`${name} is not a module pin in test/peers/pins.json; arm64Peer builds only those`);
  const cache = process.env["TF_BRIDGE_PEER_CACHE"] || join(homedir(), ".cache", "pulumi-tf-bridge-ts", "peers");
  const dir = join(cache, name, `${pin.version}-linux-arm64`);
  const exe = join(dir, `terraform-provider-${name}`);
  if (existsSync(exe)) return exe;
  mkdirSync(join(cache, name), { recursive: true });
  const tmp = mkdtempSync(join(cache, `.tmp-${name}-arm64-`));
  try {
    const modcache = (await execAsync("go", ["env", "GOMODCACHE"])).stdout.trim();
    const env = { ...process.env, GOOS: "linux", GOARCH: "arm64", CGO_ENABLED: "0", GOFLAGS: "-trimpath", GOBIN: "", GOPATH: tmp, GOMODCACHE: modcache };
    await execAsync("go", ["install", `${pin.module}@${pin.version}`], { env });
    const built = join(tmp, "bin", "linux_arm64", `terraform-provider-${name}`);
    if (elfMachine(built) !== EM_AARCH64) throw new Error(`go install with GOARCH=arm64 did not leave an AArch64 executable at ${built}`);
    mkdirSync(dir, { recursive: true });
    renameSync(built, exe);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return exe;
}
