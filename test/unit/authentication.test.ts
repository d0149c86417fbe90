// The verification chains: each step's pass and failure (with the message the user reads), a chain stopping at the
// first failure so a forged listing never costs a download, a mirror's hashes, and the lock-hash check.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as openpgp from "openpgp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseProviderAddress } from "../../src/acquire/address.js";
import {
  archiveChecksumStep,
  authenticateAll,
  authenticateInstalled,
  lockHashStep,
  mirrorAuthentication,
  registryArchiveHash,
  registryAuthentication,
  sha256SumsStep,
  signatureRecord,
  signatureStep,
  type MirrorPackage,
  type RegistryPackage,
} from "../../src/acquire/authentication.js";
import { ParameterizeError } from "../../src/acquire/errors.js";
import { eventSink } from "../../src/acquire/events.js";
import { RegistryProtocolError } from "../../src/acquire/source.js";
import { hashV1 } from "../../src/acquire/verify.js";

const random = parseProviderAddress("hashicorp/random");
const FILE = "terraform-provider-random_3.6.0_linux_amd64.zip";
const ARCHIVE = Buffer.from("pretend this is a zip");
const SHA = createHash("sha256").update(ARCHIVE).digest("hex");
const OTHER = "0".repeat(64);

let registryKey: openpgp.PrivateKey;
let strangerKey: openpgp.PrivateKey;
beforeAll(async () => {
  const gen = async (name: string) =>
    (await openpgp.generateKey({ type: "ecc", curve: "ed25519Legacy", userIDs: [{ name, email: `${name}@example.test` }], format: "object" })).privateKey;
  [registryKey, strangerKey] = await Promise.all([gen("registry"), gen("stranger")]);
});

async function sign(data: Uint8Array, key: openpgp.PrivateKey): Promise<Uint8Array> {
  return (await openpgp.sign({ message: await openpgp.createMessage({ binary: data }), signingKeys: key, detached: true, format: "binary" })) as Uint8Array;
}

/** A registry package whose parts can be spoiled one at a time; counts downloads. */
async function pkg(spoil: { sums?: string; signer?: openpgp.PrivateKey; keys?: string[]; alterAfterSigning?: boolean; archive?: Buffer } = {}) {
  const sums = Buffer.from(spoil.sums ?? `${SHA}  ${FILE}\n${OTHER}  terraform-provider-random_3.6.0_darwin_arm64.zip\n`);
  const signature = await sign(sums, spoil.signer ?? registryKey);
  const shasums = spoil.alterAfterSigning ? Buffer.from(sums.toString().replace(SHA, SHA.replace(/^./, (c) => (c === "a" ? "b" : "a")))) : sums;
  const downloads = { count: 0 };
  const p: RegistryPackage = {
    address: random,
    version: "3.6.0",
    host: "registry.example",
    filename: FILE,
    shasum: SHA,
    shasums,
    keys: spoil.keys ?? [registryKey.toPublic().armor()],
    signature: async () => signature,
    archive: async () => {
      downloads.count++;
      const body = spoil.archive ?? ARCHIVE;
      return { sha256: createHash("sha256").update(body).digest("hex"), bytes: body.length, from: "cdn.example" };
    },
  };
  return { p, downloads };
}

function collect() {
  const warnings: string[] = [];
  const debugs: string[] = [];
  return { events: eventSink({ warn: (m) => warnings.push(m), debug: (m) => debugs.push(m) }), warnings, debugs };
}

async function failure(run: Promise<unknown>): Promise<Error> {
  const e = await run.then(
    () => undefined,
    (x: unknown) => x,
  );
  if (!(e instanceof Error)) throw new Error("did not fail");
  return e;
}

describe("authenticateAll", () => {
  it("runs steps in order, collects their notes, and stops at the first failure", async () => {
    const ran: string[] = [];
    const step = (name: string, fail = false) => async (): Promise<string | undefined> => {
      ran.push(name);
      if (fail) throw new Error(`${name} failed`);
      return name === "b" ? undefined : `${name} ok`;
    };
    expect(await authenticateAll(step("a"), step("b"), step("c"))(null)).toEqual(["a ok", "c ok"]);
    ran.length = 0;
    expect((await failure(authenticateAll(step("a"), step("b", true), step("c"))(null))).message).toBe("b failed");
    expect(ran).toEqual(["a", "b"]);
  });
});

describe("the registry chain: signature → SHA256SUMS → archive", () => {
  it("passes a package signed by the registry's key, noting the key, after one download", async () => {
    const { p, downloads } = await pkg();
    const { events, warnings } = collect();
    const notes = await registryAuthentication(events)(p);
    expect(notes).toEqual([`signed by key ${registryKey.getKeyID().toHex().toUpperCase()}`]);
    expect(warnings).toEqual([]);
    expect(downloads.count).toBe(1);
  });

  it("signature: a key the registry does not list fails before the archive is downloaded", async () => {
    const { p, downloads } = await pkg({ signer: strangerKey });
    const e = await failure(registryAuthentication(collect().events)(p));
    expect(e).toBeInstanceOf(RegistryProtocolError);
    expect(e.message).toMatch(/^the SHA256SUMS of random 3\.6\.0 failed signature verification: no valid signature by the registry's keys \([0-9A-F]+\): SHA256SUMS is signed by key [0-9A-F]+, which is not one of them\. /);
    expect(e.message).toMatch(/The registry's keys and the key that signed disagree: do not use this package; tell the operator of registry\.example, or choose another version$/);
    expect(downloads.count).toBe(0);
  });

  it("signature: SHA256SUMS altered after signing is a mismatch", async () => {
    const { p } = await pkg({ alterAfterSigning: true });
    const e = await failure(signatureStep(collect().events)(p));
    expect(e.message).toMatch(/failed signature verification: .*does not match SHA256SUMS/);
    expect(e.message).toMatch(/SHA256SUMS or its signature was altered: do not use this package; try again, and if it persists tell the operator of registry\.example$/);
  });

  it("signature: no keys is accepted with a warning, the archive still checked", async () => {
    const { p, downloads } = await pkg({ keys: [] });
    const { events, warnings } = collect();
    expect(await registryAuthentication(events)(p)).toEqual(["checksum only: the registry gives no signing keys"]);
    expect(warnings).toEqual([
      "registry.example publishes no signing keys for hashicorp/random 3.6.0: its SHA256SUMS signature cannot be checked. The archive is still checked against SHA256SUMS.",
    ]);
    expect(downloads.count).toBe(1);
  });

  it("TF_BRIDGE_ENFORCE_SIGNATURE: no keys is refused before the archive is downloaded; a verified key is told", async () => {
    const unsigned = await pkg({ keys: [] });
    const { events, warnings } = collect();
    const e = await failure(registryAuthentication(events, true)(unsigned.p));
    expect(e).toBeInstanceOf(ParameterizeError);
    expect(e.message).toBe(
      "registry.opentofu.org/hashicorp/random 3.6.0 from registry.example: registry.example publishes no signing keys for it, so its signature cannot be checked, " +
        "and TF_BRIDGE_ENFORCE_SIGNATURE=true accepts only a package whose SHA256SUMS signature was verified. Install it from a provider registry that signs its packages, or unset TF_BRIDGE_ENFORCE_SIGNATURE to accept it",
    );
    expect(unsigned.downloads.count).toBe(0);
    expect(warnings).toEqual([]);
    const signed = await pkg();
    const told: string[] = [];
    await registryAuthentication(collect().events, true)({ ...signed.p, onSigned: (k) => told.push(k) });
    expect(told).toEqual([registryKey.getKeyID().toHex().toUpperCase()]);
  });

  it("SHA256SUMS: the archive must be listed, with the checksum the registry gave", async () => {
    const unlisted = await pkg({ sums: `${OTHER}  something-else.zip\n` });
    expect((await failure(sha256SumsStep(unlisted.p))).message).toBe(`the signed SHA256SUMS of random 3.6.0 does not list ${FILE}`);
    const disagrees = await pkg({ sums: `${OTHER}  ${FILE}\n` });
    expect((await failure(sha256SumsStep(disagrees.p))).message).toBe(
      `checksum mismatch for ${FILE}: the registry says ${SHA} but the signed SHA256SUMS says ${OTHER}. Do not use this package: tell the operator of registry.example`,
    );
    // Through the chain the signature passes (it is over the document as served), the listing fails, nothing is downloaded.
    expect((await failure(registryAuthentication(collect().events)(disagrees.p))).message).toMatch(/^checksum mismatch for .*: the registry says/);
    expect(disagrees.downloads.count).toBe(0);
  });

  it("archive: a download with another SHA-256 fails, naming both and where it came from", async () => {
    const damaged = Buffer.from("pretend this is a zip, damaged");
    const { p } = await pkg({ archive: damaged });
    const got = createHash("sha256").update(damaged).digest("hex");
    expect((await failure(archiveChecksumStep(p))).message).toBe(
      `checksum mismatch for ${FILE} (${damaged.length} B): expected SHA-256 ${SHA} (signed SHA256SUMS), got ${got}. ` +
        "The archive was altered or damaged on the way from cdn.example: try again, and if it persists tell the operator of registry.example",
    );
    expect(await failure(registryAuthentication(collect().events)(p))).toBeInstanceOf(RegistryProtocolError);
  });
});

describe("the network mirror chain: archive zh: → package h1:", () => {
  let dir: string;
  let h1: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "tfbridge-auth-mirror-"));
    writeFileSync(join(dir, "terraform-provider-random_v3.6.0"), "#!/bin/sh\n");
    h1 = await hashV1(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const mirrored = (hashes: string[]) => {
    const unpacks = { count: 0 };
    const p: MirrorPackage = {
      what: "the package of random 3.6.0 from network mirror https://m/",
      short: "random 3.6.0",
      mirror: "network mirror https://m/",
      hashes,
      sha256: SHA,
      unpack: async () => {
        unpacks.count++;
        return dir;
      },
    };
    return { p, unpacks };
  };
  const DAMAGED = ": it was altered or damaged on the way; try again, and if it persists tell the mirror's operator";

  it("a listed zh: settles it (the package is still unpacked, once)", async () => {
    const { p, unpacks } = mirrored([`zh:${SHA}`, "h1:whatever="]);
    expect(await mirrorAuthentication(collect().events)(p)).toEqual([`matches the mirror's zh:${SHA.slice(0, 13)}…`]);
    expect(unpacks.count).toBe(1);
  });

  it("a zh: mismatch with no h1: to fall back on fails before unpacking", async () => {
    const { p, unpacks } = mirrored([`zh:${OTHER}`]);
    expect((await failure(mirrorAuthentication(collect().events)(p))).message).toBe(
      `the package of random 3.6.0 from network mirror https://m/ matches none of its hashes (got zh:${SHA})${DAMAGED}`,
    );
    expect(unpacks.count).toBe(0);
  });

  it("otherwise the unpacked package's h1: must be listed", async () => {
    expect(await mirrorAuthentication(collect().events)(mirrored([`zh:${OTHER}`, h1]).p)).toEqual([`matches the mirror's ${h1}`]);
    expect((await failure(mirrorAuthentication(collect().events)(mirrored(["h1:other="]).p))).message).toBe(
      `the package of random 3.6.0 from network mirror https://m/ matches none of its hashes (got ${h1} and zh:${SHA})${DAMAGED}`,
    );
  });

  it("no hashes at all is a warning, and the package is used unverified", async () => {
    const { events, warnings } = collect();
    expect(await mirrorAuthentication(events)(mirrored([]).p)).toEqual(["not verified: the mirror gives no hashes"]);
    expect(warnings).toEqual(["network mirror https://m/ gives no hashes for random 3.6.0: the package is not verified"]);
  });
});

describe("the lock-hash check of an installed package", () => {
  let dir: string;
  let h1: string;
  beforeAll(async () => {
    const root = mkdtempSync(join(tmpdir(), "tfbridge-auth-"));
    dir = join(root, "3.6.0", "linux_amd64");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "terraform-provider-random_v3.6.0"), "#!/bin/sh\n");
    h1 = await hashV1(dir);
  });
  afterAll(() => rmSync(join(dir, "../.."), { recursive: true, force: true }));
  const installed = () => ({ address: random, version: "3.6.0", dir, h1 });

  it("checks nothing for `package add` (no value yet), and says so in the debug log for a value that pins no h1:", async () => {
    const { events, debugs } = collect();
    expect(await lockHashStep(undefined, events)(installed())).toBeUndefined();
    expect(debugs).toEqual([]);
    expect(await lockHashStep(["zh:" + OTHER], events)(installed())).toBeUndefined();
    expect(debugs).toEqual([
      "registry.opentofu.org/hashicorp/random 3.6.0: the parameter value pins no h1: lock hash (an SDK generated before lock hashes, or by the reference), so the package is not checked against one",
    ]);
  });

  it("passes a package with one of the pinned h1: hashes", async () => {
    expect(await lockHashStep(["h1:other=", h1], collect().events)(installed())).toBe(`matches the pinned ${h1}`);
  });

  it("fails another package, naming both hashes and how to regenerate the SDK", async () => {
    const e = await failure(lockHashStep(["h1:pinned="], collect().events)(installed()));
    expect(e).toBeInstanceOf(ParameterizeError);
    expect((e as ParameterizeError).kind).toBe("failed-precondition");
    expect(e.message).toBe(
      `the package of registry.opentofu.org/hashicorp/random 3.6.0 at ${dir} has lock hash ${h1}, but the SDK was generated from one with h1:pinned=: ` +
        "the registry, a mirror or the cache now holds a different package under that version. If the new package is trusted, regenerate the SDK " +
        `with \`pulumi package add terraform-provider hashicorp/random 3.6.0\` (or replace "hashes" in its parameter value); otherwise remove ${dir} and find out who changed it`,
    );
  });

  it("authenticateInstalled hashes the directory, checks it, and adds the registry archive's zh: kept beside it", async () => {
    const { events } = collect();
    expect(await authenticateInstalled(random, "3.6.0", dir, [h1], events)).toEqual([h1]);
    writeFileSync(`${dir}.zh`, `zh:${SHA}\n`);
    expect(await authenticateInstalled(random, "3.6.0", dir, undefined, events)).toEqual([h1, `zh:${SHA}`]);
    writeFileSync(`${dir}.zh`, "zh:not-hex\n");
    expect(await authenticateInstalled(random, "3.6.0", dir, undefined, events)).toEqual([h1]);
    await expect(authenticateInstalled(random, "3.6.0", dir, ["h1:pinned="], events)).rejects.toThrow(/has lock hash h1:/);
  });

  it("the key that signed is read from the second line of the .zh beside the package, and only from there", async () => {
    writeFileSync(`${dir}.zh`, `zh:${SHA}\nsigned-by 0123456789ABCDEF\n`);
    expect(registryArchiveHash(dir)).toBe(`zh:${SHA}`);
    expect(signatureRecord(dir)).toBe("0123456789ABCDEF");
    writeFileSync(`${dir}.zh`, `zh:${SHA}\n`);
    expect(signatureRecord(dir)).toBeUndefined();
    writeFileSync(`${dir}.zh`, `zh:${SHA}\nsigned-by not-a-key\n`);
    expect(signatureRecord(dir)).toBeUndefined();
    rmSync(`${dir}.zh`);
    expect(signatureRecord(dir)).toBeUndefined();
  });
});
