// The pieces under acquisition, in-process on real files: zip extraction that refuses escaping entries, atomic and
// locked cache installs (failures leave nothing, concurrent installs fill once, stale locks and staging are cleaned),
// h1: hashes, and OpenPGP signatures.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as openpgp from "openpgp";
import { afterAll, describe, expect, it } from "vitest";
import { parseProviderAddress } from "../../src/acquire/address.js";
import { extractZip, UnsafeArchiveError } from "../../src/acquire/archive.js";
import { cachedVersions, cacheRoot, findExecutable, installPackage, packageDir } from "../../src/acquire/cache.js";
import { hashV1, parseSha256Sums, verifyDetachedSignature } from "../../src/acquire/verify.js";
import { buildZip } from "../support/registry-zip.js";

const dirs: string[] = [];
const tmp = (): string => {
  const d = mkdtempSync(join(tmpdir(), "tfbridge-cache-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const exe = Buffer.from("#!/bin/sh\necho provider\n");

function zipFile(entries: Parameters<typeof buildZip>[0]): string {
  const p = join(tmp(), "a.zip");
  writeFileSync(p, buildZip(entries));
  return p;
}

describe("zip extraction", () => {
  it("unpacks files, directories and Unix modes", async () => {
    const dest = tmp();
    const written = await extractZip(
      zipFile([
        { name: "terraform-provider-x_v1.0.0", data: exe, mode: 0o100755 },
        { name: "docs/", data: Buffer.alloc(0), mode: 0o040755 },
        { name: "docs/README.md", data: Buffer.from("# x\n"), stored: true },
      ]),
      dest,
    );
    expect(written.sort()).toEqual(["docs/README.md", "terraform-provider-x_v1.0.0"]);
    expect(statSync(join(dest, "terraform-provider-x_v1.0.0")).mode & 0o777).toBe(0o755);
    expect(statSync(join(dest, "docs/README.md")).mode & 0o777).toBe(0o644);
    expect(readFileSync(join(dest, "terraform-provider-x_v1.0.0"))).toEqual(exe);
  });

  it("refuses entries that would land outside the target directory, and symbolic links", async () => {
    const cases: [string, number | undefined, RegExp][] = [
      ["../evil", undefined, /"\.\.\/evil" would be written outside the target directory/],
      ["a/../../evil", undefined, /would be written outside the target directory/],
      ["/etc/evil", undefined, /"\/etc\/evil" would be written outside the target directory \(absolute path\)/],
      ["..\\evil", undefined, /would be written outside the target directory/],
      ["link", 0o120777, /symbolic link/],
    ];
    for (const [name, mode, message] of cases) {
      const parent = tmp();
      const dest = join(parent, "pkg");
      mkdirSync(dest);
      const e = await extractZip(zipFile([{ name, data: Buffer.from("../../../../etc/passwd"), mode }]), dest).catch((x: unknown) => x);
      expect(e, name).toBeInstanceOf(UnsafeArchiveError);
      expect((e as Error).message, name).toMatch(message);
      expect(readdirSync(parent), name).toEqual(["pkg"]);
    }
  });

  it("refuses an archive that unpacks to more than the limit", async () => {
    const e = await extractZip(zipFile([{ name: "big", data: Buffer.alloc(1 << 20) }]), tmp(), { maxBytes: 1000 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(UnsafeArchiveError);
    expect((e as Error).message).toMatch(/more than 1000 bytes/);
  });
});

describe("the cache", () => {
  const a = parseProviderAddress("registry.example.com/acme/x");
  const fill = (name = "terraform-provider-x_v1.0.0") => async (staging: string, scratch: string) => {
    expect(scratch).not.toBe(staging);
    writeFileSync(join(staging, name), exe, { mode: 0o755 });
  };

  it("lives where the reference keeps it: PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR, else $PULUMI_HOME/dynamic_tf_plugins", () => {
    expect(cacheRoot({ PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR: "/c", PULUMI_HOME: "/p" })).toBe("/c");
    expect(cacheRoot({ PULUMI_HOME: "/p" })).toBe("/p/dynamic_tf_plugins");
    expect(cacheRoot({ HOME: "/home/u" })).toBe("/home/u/.pulumi/dynamic_tf_plugins");
    expect(packageDir("/c", parseProviderAddress("café.fr/a/b"), "1.0.0", "linux_amd64")).toBe("/c/café.fr/a/b/1.0.0/linux_amd64");
  });

  it("installs atomically: the package appears complete under its final name, with nothing else beside it", async () => {
    const root = tmp();
    const path = await installPackage(root, a, "1.0.0", "linux_amd64", fill());
    expect(path).toBe(join(root, "registry.example.com/acme/x/1.0.0/linux_amd64/terraform-provider-x_v1.0.0"));
    expect(readdirSync(join(root, "registry.example.com/acme/x/1.0.0"))).toEqual(["linux_amd64"]);
    expect(cachedVersions(root, a, "linux_amd64")).toEqual(["1.0.0"]);
    // Already there: not filled again.
    let called = false;
    expect(await installPackage(root, a, "1.0.0", "linux_amd64", async () => void (called = true))).toBe(path);
    expect(called).toBe(false);
  });

  it("leaves nothing behind when the fill fails or yields no provider executable", async () => {
    const root = tmp();
    const boom = await installPackage(root, a, "1.0.0", "linux_amd64", async (staging) => {
      writeFileSync(join(staging, "terraform-provider-x"), "half");
      throw new Error("network went away");
    }).catch((e: unknown) => e);
    expect((boom as Error).message).toBe("network went away");
    const empty = await installPackage(root, a, "1.0.0", "linux_amd64", fill("README.md")).catch((e: unknown) => e);
    expect((empty as Error).message).toMatch(/has no executable named terraform-provider-x/);
    expect(readdirSync(root)).toEqual([]);
  });

  it("fills once for concurrent installs of the same package in one process", async () => {
    const root = tmp();
    let fills = 0;
    const slowFill = async (staging: string) => {
      fills++;
      await new Promise((r) => setTimeout(r, 200));
      writeFileSync(join(staging, "terraform-provider-x"), exe, { mode: 0o755 });
    };
    const paths = await Promise.all([1, 2, 3].map(() => installPackage(root, a, "2.0.0", "linux_amd64", slowFill)));
    expect(new Set(paths).size).toBe(1);
    expect(fills).toBe(1);
  });

  it("takes over a stale lock and removes staging left by a killed install", async () => {
    const root = tmp();
    const versionDir = join(root, "registry.example.com/acme/x/3.0.0");
    mkdirSync(join(versionDir, ".linux_amd64.install-lock"), { recursive: true });
    mkdirSync(join(versionDir, ".linux_amd64.staging-abc123-xyz"));
    const old = new Date(Date.now() - 10 * 60_000);
    utimesSync(join(versionDir, ".linux_amd64.install-lock"), old, old);
    const waits: string[] = [];
    const path = await installPackage(root, a, "3.0.0", "linux_amd64", fill(), { onWait: (m) => waits.push(m) });
    expect(existsSync(path)).toBe(true);
    expect(readdirSync(versionDir)).toEqual(["linux_amd64"]);
  });

  it("finds the executable as Terraform does: terraform-provider-<type> then nothing, _… or .…", () => {
    const d = tmp();
    for (const f of ["terraform-provider-xy", "terraform-provider-x-extra", "README", "terraform-provider-x_v1.2.3"]) writeFileSync(join(d, f), "");
    expect(findExecutable(d, "x")).toBe(join(d, "terraform-provider-x_v1.2.3"));
    expect(findExecutable(d, "nope")).toBeUndefined();
  });
});

describe("verification", () => {
  it("h1: is Go's dirhash Hash1 over the unpacked files", async () => {
    const d = tmp();
    mkdirSync(join(d, "sub"));
    writeFileSync(join(d, "b.txt"), "bee\n");
    writeFileSync(join(d, "sub", "a.txt"), "a\n");
    writeFileSync(join(d, "A.txt"), "upper\n");
    const h = (s: string): string => createHash("sha256").update(s).digest("hex");
    // Sorted by bytes: "A.txt" < "b.txt" < "sub/a.txt".
    const summary = `${h("upper\n")}  A.txt\n${h("bee\n")}  b.txt\n${h("a\n")}  sub/a.txt\n`;
    expect(await hashV1(d)).toBe("h1:" + createHash("sha256").update(summary).digest("base64"));
  });

  it("parses SHA256SUMS", () => {
    const sums = parseSha256Sums(`${"a".repeat(64)}  x_1.0.0_linux_amd64.zip\n${"B".repeat(64)} *x_1.0.0_darwin_arm64.zip\r\nnot a line\n`);
    expect([...sums]).toEqual([
      ["x_1.0.0_linux_amd64.zip", "a".repeat(64)],
      ["x_1.0.0_darwin_arm64.zip", "b".repeat(64)],
    ]);
  });

  it("accepts a detached signature (binary or armored) by a given key and rejects any other", async () => {
    const gen = async () => (await openpgp.generateKey({ type: "ecc", curve: "ed25519Legacy", userIDs: [{ name: "k" }], format: "object" })).privateKey;
    const [key, other] = await Promise.all([gen(), gen()]);
    const data = new TextEncoder().encode("checksums\n");
    const message = await openpgp.createMessage({ binary: data });
    const binary = await openpgp.sign({ message, signingKeys: key, detached: true, format: "binary" });
    const armored = await openpgp.sign({ message: await openpgp.createMessage({ binary: data }), signingKeys: key, detached: true });
    const pub = key.toPublic().armor();
    expect((await verifyDetachedSignature(data, binary as Uint8Array, [pub])).keyId).toBe(key.getKeyID().toHex().toUpperCase());
    expect((await verifyDetachedSignature(data, new TextEncoder().encode(armored as string), [other.toPublic().armor(), pub])).keyId).toMatch(/^[0-9A-F]{16}$/);
    await expect(verifyDetachedSignature(data, binary as Uint8Array, [other.toPublic().armor()])).rejects.toThrow(/no valid signature by the registry's keys/);
    await expect(verifyDetachedSignature(new TextEncoder().encode("tampered\n"), binary as Uint8Array, [pub])).rejects.toThrow(/no valid signature/);
    await expect(verifyDetachedSignature(data, new TextEncoder().encode("garbage"), [pub])).rejects.toThrow(/not an OpenPGP signature/);
  });
});
