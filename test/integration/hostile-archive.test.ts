// Hostile archives and version strings through the real acquisition path (acquireRemote in a child process) from the
// loopback fake registry, its network mirror listing no hashes, and a filesystem mirror: damaged CRC-32s, duplicate
// entries, over-long names, too many entries, and versions written "v1.0.0" or " 1.0.0". Each must fail with the
// archive and entry named, or skip the version with a warning, and leave nothing in the cache.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseProviderAddress } from "../../src/acquire/address.js";
import { encodeValue, parseValue } from "../../src/parameterize/value.js";
import { acquireInChild, sandbox, type AcquireResult, type Sandbox } from "../support/registry-child.js";
import { CURRENT_PLATFORM, FakeRegistry, type FakeVersion } from "../support/registry-server.js";
import { withFlippedByte, type ZipEntry } from "../support/registry-zip.js";

const license: ZipEntry = { name: "LICENSE", data: Buffer.from(`Permission is hereby granted, free of charge ${"-".repeat(400)}\n`), mode: 0o100644 };
const file = (name: string): ZipEntry => ({ name, data: Buffer.from("x\n"), mode: 0o100644 });
const dir = (name: string): ZipEntry => ({ name, data: Buffer.alloc(0), mode: 0o040755 });

/** Version → what its archive holds, besides (or instead of) the provider executable `exe`. */
const HOSTILE: Record<string, (exe: ZipEntry) => ZipEntry[]> = {
  "1.0.0": (exe) => [exe, license],
  "1.0.1": (exe) => [withFlippedByte(exe), license],
  "1.0.2": (exe) => [withFlippedByte({ ...exe, stored: true }), license],
  "1.0.3": (exe) => [exe, withFlippedByte(license)],
  "1.0.4": (exe) => [exe, withFlippedByte({ ...license, stored: true })],
  "1.0.5": (exe) => [exe, license, license],
  "1.0.6": (exe) => [exe, file("docs"), dir("docs/")],
  "1.0.7": (exe) => [exe, file("n".repeat(300))],
  "1.0.8": (exe) => [exe, ...Array.from({ length: 30 }, (_, i) => file(`f${i}`))],
};

let reg: FakeRegistry;
let work: string;
/** A filesystem mirror holding the same archives, in Terraform's packed layout. */
let fsMirror: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "tfbridge-hostile-"));
  // The archives only need an executable of the provider's name: these tests never start it, so a small script
  // keeps the hundreds of flipped-byte trials cheap and needs no built provider.
  const binary = join(work, "terraform-provider-x");
  writeFileSync(binary, `#!/bin/sh\n# not a provider: only unpacked, never run\n${"echo unused\n".repeat(200)}`);
  chmodSync(binary, 0o755);
  const hostile: FakeVersion[] = Object.entries(HOSTILE).map(([version, entries]) => ({ version, entries }));
  reg = await FakeRegistry.start({
    providers: {
      "hostile/x": hostile,
      "vprefix/x": [{ version: "v1.0.0" }, { version: "1.0.0" }, { version: "v2.0.0" }],
      "spaced/x": [{ version: " 1.0.0" }],
      "pre/x": [{ version: "1.0.0" }, { version: "1.1.0-beta" }],
    },
    binaries: { x: binary },
    mirrorHashes: false,
  });
  fsMirror = join(work, "fs-mirror");
  const into = join(fsMirror, "registry.opentofu.org", "hostile", "x");
  mkdirSync(into, { recursive: true });
  for (const v of hostile) writeFileSync(join(into, `terraform-provider-x_${v.version}_${CURRENT_PLATFORM}.zip`), (await reg.build("hostile", "x", v)).zip);
});

afterAll(async () => {
  await reg?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

type Via = "registry" | "network mirror without hashes" | "filesystem mirror";

/** A sandbox whose CLI configuration sends registry.opentofu.org to one of the mirrors (or none, for the registry). */
function setup(via: Via, env: NodeJS.ProcessEnv = {}): { sb: Sandbox; address: (ns: string) => string } {
  const sb = sandbox(reg.caFile, env);
  if (via === "registry") return { sb, address: (ns) => `${reg.host}/${ns}/x` };
  const method = via === "filesystem mirror" ? `filesystem_mirror {\n    path = "${fsMirror}"\n  }` : `network_mirror {\n    url = "https://${reg.host}/mirror/"\n  }`;
  const rc = join(sb.home, "mirror.tfrc");
  writeFileSync(rc, `provider_installation {\n  ${method}\n}\n`);
  sb.env["TF_CLI_CONFIG_FILE"] = rc;
  return { sb, address: (ns) => `registry.opentofu.org/${ns}/x` };
}

/** Every path under the cache directory: after a failure there must be none. */
function cacheContents(cache: string): string[] {
  return existsSync(cache) ? readdirSync(cache, { recursive: true }).map(String) : [];
}

async function acquire(via: Via, ns: string, constraint: string, env: NodeJS.ProcessEnv = {}): Promise<{ r: AcquireResult; left: string[] }> {
  const { sb, address } = setup(via, env);
  try {
    const r = await acquireInChild(address(ns), constraint, sb.env);
    return { r, left: cacheContents(sb.cache) };
  } finally {
    rmSync(dirname(sb.home), { recursive: true, force: true });
  }
}

function expectCleanFailure(r: AcquireResult, left: string[], message: RegExp): void {
  expect(r.ok, JSON.stringify(r, null, 2)).toBe(false);
  expect(r.stack).toBeUndefined();
  expect(r.kind).toBe("failed-precondition");
  expect(r.message).toMatch(message);
  expect(left).toEqual([]);
}

const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** How each route names the archive in its messages. */
const archiveName: Record<Via, (v: string) => string> = {
  registry: (v) => esc(`terraform-provider-x_${v}_${CURRENT_PLATFORM}.zip`),
  "network mirror without hashes": (v) => `the archive https://127\\.0\\.0\\.1:\\d+/files/hostile/x/${esc(v)}/terraform-provider-x_${esc(v)}_${CURRENT_PLATFORM}\\.zip`,
  "filesystem mirror": (v) => `the archive ${esc(join(fsMirror, "registry.opentofu.org/hostile/x", `terraform-provider-x_${v}_${CURRENT_PLATFORM}.zip`))}`,
};
const CRC = "does not match its checksum \\(its data has CRC-32 [0-9a-f]{8}, the archive records [0-9a-f]{8}\\); it was damaged on the way or where it is kept\\. Try again, and if it persists tell the operator of ";

describe.each<Via>(["registry", "network mirror without hashes", "filesystem mirror"])("hostile archives from the %s", (via) => {
  it("an intact archive installs (the neighbour every refusal below is measured against)", async () => {
    const { r, left } = await acquire(via, "hostile", "= 1.0.0");
    expect(r, JSON.stringify(r, null, 2)).toMatchObject({ ok: true, version: "1.0.0" });
    expect(left.filter((p) => p.endsWith(join("1.0.0", CURRENT_PLATFORM, "LICENSE")))).toHaveLength(1);
  });

  for (const [version, entry, where] of [
    ["1.0.1", "terraform-provider-x_v1.0.1", "a flipped byte in the deflated binary"],
    ["1.0.2", "terraform-provider-x_v1.0.2", "a flipped byte in the stored binary"],
    ["1.0.3", "LICENSE", "a flipped byte in a deflated second entry"],
    ["1.0.4", "LICENSE", "a flipped byte in a stored second entry"],
  ] as const) {
    it(`${where}: corrupt, naming the archive and the entry; nothing cached`, async () => {
      const { r, left } = await acquire(via, "hostile", `= ${version}`);
      expectCleanFailure(r, left, new RegExp(`${archiveName[via](version)} is corrupt: entry "${esc(entry)}" ${CRC}`));
    });
  }

  for (const [version, what, message] of [
    ["1.0.5", "a duplicate entry", 'entry "LICENSE" appears twice in the archive \\(a duplicate entry\\)'],
    ["1.0.6", "a file, then a directory of the same name", 'entry "docs/" is a directory, but the archive also holds a file of that name'],
    ["1.0.7", "an entry name of 300 bytes", 'entry "n{300}" has a name too long for the file system: "n{40}…" is 300 bytes, the most is 255'],
  ] as const) {
    it(`${what}: refused naming the archive and the entry; nothing cached`, async () => {
      const { r, left } = await acquire(via, "hostile", `= ${version}`);
      expectCleanFailure(r, left, new RegExp(`${archiveName[via](version)}: ${message}$`));
    });
  }

  it("more entries than TF_BRIDGE_MAX_ARCHIVE_ENTRIES: refused naming the setting; nothing cached", async () => {
    const { r, left } = await acquire(via, "hostile", "= 1.0.8", { TF_BRIDGE_MAX_ARCHIVE_ENTRIES: "20" });
    expectCleanFailure(
      r,
      left,
      new RegExp(`${archiveName[via]("1.0.8")} holds 31 entries, more than the limit of 20 \\(provider packages hold a few files\\): if the provider really has that many, raise TF_BRIDGE_MAX_ARCHIVE_ENTRIES \\(now 20\\)$`),
    );
  });
});

describe("versions the registry lists", () => {
  it('"v1.0.0" and "v2.0.0" beside "1.0.0": skipped with a warning; 1.0.0 is installed and round-trips through a parameter value', async () => {
    const { r, left } = await acquire("registry", "vprefix", "");
    expect(r, JSON.stringify(r, null, 2)).toMatchObject({ ok: true, version: "1.0.0" });
    for (const bad of ["v1.0.0", "v2.0.0"]) {
      expect(r.warnings).toContainEqual(expect.stringMatching(new RegExp(`^the registry at 127\\.0\\.0\\.1:\\d+ lists "${bad}" as a version of 127\\.0\\.0\\.1:\\d+/vprefix/x, which is not an exact version \\(it starts with "v"; write the version alone, e\\.g\\. ${esc(bad.slice(1))}\\); ignoring it$`)));
    }
    // The only version directory is 1.0.0's: none is named after what the registry wrote.
    expect(left.filter((p) => p.split("/").length === 4)).toEqual([`${reg.host}/vprefix/x/1.0.0`]);
    expect(dirname(dirname(r.path!)).split("/").pop()).toBe("1.0.0");
    const value = { source: { kind: "remote" as const, address: parseProviderAddress(`${reg.host}/vprefix/x`), version: r.version! }, selection: { includes: [], excludes: [] } };
    expect(parseValue(encodeValue(value))).toEqual(value);
  });

  it('only " 1.0.0": nothing usable, said so; nothing cached', async () => {
    const { r, left } = await acquire("registry", "spaced", "");
    expect(r, JSON.stringify(r, null, 2)).toMatchObject({ ok: false, kind: "not-found" });
    expect(r.stack).toBeUndefined();
    expect(r.message).toMatch(/^no version of 127\.0\.0\.1:\d+\/spaced\/x can be used: every version offered is malformed \(" 1\.0\.0"\); tell the operator of the source that versions must be written as MAJOR\.MINOR\.PATCH$/);
    expect(r.warnings).toContainEqual(expect.stringMatching(/lists " 1\.0\.0" as a version of .*\(it has spaces around it\); ignoring it$/));
    expect(left).toEqual([]);
  });

  it('"1.1.0-beta" beside "1.0.0": as Terraform, a range never picks the pre-release; "= 1.1.0-beta" does', async () => {
    const newest = await acquire("registry", "pre", ">= 1.0.0");
    expect(newest.r, JSON.stringify(newest.r, null, 2)).toMatchObject({ ok: true, version: "1.0.0" });
    expect(newest.r.warnings).toEqual([]);
    const exact = await acquire("registry", "pre", "= 1.1.0-beta");
    expect(exact.r, JSON.stringify(exact.r, null, 2)).toMatchObject({ ok: true, version: "1.1.0-beta" });
    expect(exact.left.filter((p) => p.split("/").length === 4)).toEqual([`${reg.host}/pre/x/1.1.0-beta`]);
  });
});
