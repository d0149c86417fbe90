// Registries, mirrors and proxies that misbehave or carry secrets, against the loopback fake registry
// (test/support/registry-server.ts, told per test what hostile document to serve) and a real tinyproxy, through the
// real acquisition in a child process: passwords in proxy and mirror URLs never shown, metadata documents capped
// while streaming, download URLs that are not http(s) refused at once, and TF_BRIDGE_ENFORCE_SIGNATURE.
import { readFileSync, writeFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer, type AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { peerPath } from "../support/peers.js";
import { acquireInChild, sandbox, type AcquireResult, type Sandbox } from "../support/registry-child.js";
import { CURRENT_PLATFORM, FakeRegistry } from "../support/registry-server.js";
import { startTinyproxy, tinyproxyMissing, type Tinyproxy } from "../support/tinyproxy.js";

let reg: FakeRegistry;
const ADDRESS = (): string => `${reg.host}/hostile/random`;
const VERSIONS_PATH = "/v1/providers/hostile/random/versions";
const ARCHIVE = /\/files\/hostile\/random\/[^/]+\/[^/]*\.zip$/;

beforeAll(async () => {
  reg = await FakeRegistry.start({
    providers: { "hostile/random": [{ version: "1.0.0" }, { version: "1.0.2", fault: "no-keys" }, { version: "1.0.3" }] },
    binaries: { random: peerPath("random") },
  });
});
afterAll(async () => {
  await reg?.stop();
});
afterEach(() => {
  reg.respond = undefined;
});

/** Everything the child said, as one text, to look for a secret in. */
const everything = (r: AcquireResult): string => [r.message ?? "", ...r.statuses, ...r.warnings, ...(r.debugs ?? [])].join("\n");

/** A loopback port nobody listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A sandbox whose CLI configuration installs every provider from one network mirror. */
function mirrorSandbox(url: string, extra: NodeJS.ProcessEnv = {}): Sandbox {
  const sb = sandbox(reg.caFile, extra);
  const rc = join(sb.home, "mirror.tfrc");
  writeFileSync(rc, `provider_installation {\n  network_mirror {\n    url = "${url}"\n  }\n}\n`);
  sb.env["TF_CLI_CONFIG_FILE"] = rc;
  return sb;
}

/** The versions document the fake would serve for hostile/random, padded with spaces to exactly `size` bytes. */
function versionsDocument(size: number): Buffer {
  const [os, arch] = CURRENT_PLATFORM.split("_");
  const doc = JSON.stringify({ id: "hostile/random", versions: [{ version: "1.0.0", protocols: ["5.0"], platforms: [{ os, arch }] }], warnings: null });
  if (doc.length > size) throw new Error(`the document is already ${doc.length} bytes`);
  return Buffer.from(doc + " ".repeat(size - doc.length));
}

/** Answers `path` with `body`, announcing its length or (chunked) not. */
function serve(path: string, body: Buffer, chunked: boolean): (p: string, req: IncomingMessage, res: ServerResponse) => boolean {
  return (p, _req, res) => {
    if (p !== path) return false;
    res.writeHead(200, { "content-type": "application/json", ...(chunked ? {} : { "content-length": String(body.length) }) });
    if (chunked) {
      for (let off = 0; off < body.length; off += 16 * 1024) res.write(body.subarray(off, off + 16 * 1024));
      res.end();
    } else res.end(body);
    return true;
  };
}

describe.skipIf(tinyproxyMissing())("a proxy URL with credentials", () => {
  const PASSWORD = "s3cr3t-pw";
  let proxy: Tinyproxy;
  let port: string;
  beforeAll(async () => {
    // tinyproxy's BasicAuth takes no `@` in a password: those neighbours are below, against a proxy that is not there.
    proxy = await startTinyproxy({ basicAuth: { user: "alice", password: PASSWORD } });
    port = new URL(proxy.url).port;
  });
  afterAll(async () => {
    await proxy?.stop();
  });

  it("the credentials reach the proxy (it demands them) and the provider installs; no line shows the password", async () => {
    const r = await acquireInChild(ADDRESS(), "1.0.0", sandbox(reg.caFile, { HTTPS_PROXY: `http://alice:${PASSWORD}@127.0.0.1:${port}` }).env);
    expect(r, JSON.stringify(r)).toMatchObject({ ok: true, version: "1.0.0" });
    expect(proxy.log()).toMatch(new RegExp(`CONNECT ${reg.host.replace(/\./g, "\\.")}`));
    expect(everything(r)).not.toContain(PASSWORD);
  });

  it.each([
    ["a wrong password", `http://alice:wrong-${PASSWORD}@127.0.0.1:PORT`, "http://alice:***@127.0.0.1:PORT/", `wrong-${PASSWORD}`],
    ["a user and no password", "http://alice@127.0.0.1:PORT", "http://***@127.0.0.1:PORT/", "alice"],
  ])("%s: refused by the proxy, named with the credentials masked", async (_name, value, shown, secret) => {
    const r = await acquireInChild(ADDRESS(), "1.0.0", sandbox(reg.caFile, { HTTPS_PROXY: value.replace("PORT", port) }).env);
    expect(r.ok).toBe(false);
    expect(r.message).toContain(`the proxy ${shown.replace("PORT", port)} (HTTPS_PROXY) refused to connect to ${reg.host} (HTTP 40`);
    expect(everything(r)).not.toContain(secret);
  });
});

describe("a proxy that is not there, its URL with credentials", () => {
  it.each([
    ["a password", "http://alice:PASS-w0rd@127.0.0.1:PORT/", "http://alice:***@127.0.0.1:PORT/", "PASS-w0rd"],
    ["a password holding @", "http://alice:p@ss-w0rd@127.0.0.1:PORT/", "http://alice:***@127.0.0.1:PORT/", "ss-w0rd"],
    ["a password holding %40", "http://alice:p%40ss-w0rd@127.0.0.1:PORT/", "http://alice:***@127.0.0.1:PORT/", "ss-w0rd"],
    ["a user alone", "http://t0ken-alone@127.0.0.1:PORT/", "http://***@127.0.0.1:PORT/", "t0ken-alone"],
  ])("%s: the error and the retry line name the proxy masked", async (_name, value, shown, secret) => {
    const port = String(await closedPort());
    const r = await acquireInChild(ADDRESS(), "1.0.0", sandbox(reg.caFile, { HTTPS_PROXY: value.replace("PORT", port), TF_REGISTRY_DISCOVERY_RETRY: "1" }).env);
    expect(r.ok).toBe(false);
    const expected = `cannot reach ${reg.host} through the proxy ${shown.replace("PORT", port)} (HTTPS_PROXY; ECONNREFUSED`;
    expect(r.message).toContain(expected);
    expect(r.statuses.filter((s) => s.includes(expected) && /trying again in/.test(s))).toHaveLength(1);
    expect(everything(r)).not.toContain(secret);
  }, 30_000);

  it("a proxy variable that is no URL is refused with everything between // and the last @ masked", async () => {
    const r = await acquireInChild(ADDRESS(), "1.0.0", sandbox(reg.caFile, { HTTPS_PROXY: "http://alice:PA SS@w0rd@[127.0.0.1:9/" }).env);
    expect(r).toMatchObject({ ok: false, kind: "invalid-argument", message: "HTTPS_PROXY=http://***@[127.0.0.1:9/ is not a proxy URL; set it to http://host:port (or unset it)" });
  });
});

describe("a network_mirror URL with credentials", () => {
  const basic = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
  /** The fake demands bob's credentials on every mirror and archive request. */
  const demand = (password: string) => (p: string, req: IncomingMessage, res: ServerResponse): boolean => {
    if (!/^\/(mirror|files)\//.test(p) || req.headers.authorization === basic("bob", password)) return false;
    res.writeHead(401, { "content-type": "application/json" });
    res.end('{"errors":["not authorized"]}');
    return true;
  };

  it("a password holding @ (written %40): sent as Basic credentials to the mirror, and the provider installs", async () => {
    reg.respond = demand("p@ss-w0rd");
    const r = await acquireInChild("registry.opentofu.org/hostile/random", "1.0.0", mirrorSandbox(`https://bob:p%40ss-w0rd@${reg.host}/mirror/`).env);
    expect(r, JSON.stringify(r)).toMatchObject({ ok: true, version: "1.0.0" });
    expect(r.statuses.at(-1)).toContain(`from network mirror https://bob:***@${reg.host}/mirror/`);
    expect(everything(r)).not.toMatch(/ss-w0rd/);
  });

  it("a wrong password: the 401 names the mirror and its URL masked", async () => {
    reg.respond = demand("p@ss-w0rd");
    const r = await acquireInChild("registry.opentofu.org/hostile/random", "1.0.0", mirrorSandbox(`https://bob:wr0ng-pw@${reg.host}/mirror/`).env);
    expect(r.ok).toBe(false);
    expect(r.message).toContain(`network mirror https://bob:***@${reg.host}/mirror/`);
    expect(r.message).toContain(`https://bob:***@${reg.host}/mirror/registry.opentofu.org/hostile/random/index.json answered 401`);
    expect(everything(r)).not.toContain("wr0ng-pw");
  });

  it("a mirror that is not there: an unreachable host (not fetch refusing the URL), masked", async () => {
    const port = await closedPort();
    const r = await acquireInChild("registry.opentofu.org/hostile/random", "1.0.0", mirrorSandbox(`https://bob:hunter2@127.0.0.1:${port}/mirror/`, { TF_REGISTRY_DISCOVERY_RETRY: "0" }).env);
    expect(r.ok).toBe(false);
    expect(r.message).toMatch(new RegExp(`could not reach network mirror https://bob:\\*\\*\\*@127\\.0\\.0\\.1:${port}/mirror/: cannot reach 127\\.0\\.0\\.1:${port} \\(ECONNREFUSED`));
    expect(everything(r)).not.toContain("hunter2");
  });
});

describe("metadata size limit (TF_BRIDGE_MAX_METADATA_BYTES)", () => {
  const LIMIT = 64 * 1024;
  const env = (): NodeJS.ProcessEnv => sandbox(reg.caFile, { TF_BRIDGE_MAX_METADATA_BYTES: String(LIMIT) }).env;

  it.each([
    ["with Content-Length", false],
    ["chunked", true],
  ])("a versions document of exactly the limit passes (%s)", async (_name, chunked) => {
    reg.respond = serve(VERSIONS_PATH, versionsDocument(LIMIT), chunked);
    const r = await acquireInChild(ADDRESS(), "1.0.0", env());
    expect(r, JSON.stringify(r)).toMatchObject({ ok: true, version: "1.0.0" });
  });

  it("one byte over, announced by Content-Length: refused before reading, naming the URL, the limit and the setting", async () => {
    reg.respond = serve(VERSIONS_PATH, versionsDocument(LIMIT + 1), false);
    const r = await acquireInChild(ADDRESS(), "1.0.0", env());
    expect(r).toMatchObject({ ok: false, kind: "failed-precondition" });
    expect(r.message).toContain(
      `listing versions of hostile/random: https://${reg.host}${VERSIONS_PATH} is ${LIMIT + 1} bytes, more than the limit of ${LIMIT} bytes: ` +
        `if the document really is that large, raise TF_BRIDGE_MAX_METADATA_BYTES (bytes, now ${LIMIT})`,
    );
    // Not a failure worth retrying.
    expect(r.statuses.some((s) => /trying again/.test(s))).toBe(false);
  });

  it("one byte over, chunked (no Content-Length): refused once the bytes pass the limit", async () => {
    reg.respond = serve(VERSIONS_PATH, versionsDocument(LIMIT + 1), true);
    const r = await acquireInChild(ADDRESS(), "1.0.0", env());
    expect(r.ok).toBe(false);
    expect(r.message).toContain(
      `https://${reg.host}${VERSIONS_PATH} sent more than the limit of 64.0 KiB (it did not announce a size): if the document really is that large, raise TF_BRIDGE_MAX_METADATA_BYTES (bytes, now ${LIMIT})`,
    );
  });

  it.each([
    ["SHA256SUMS", "SHA256SUMS of random 1.0.0"],
    ["SHA256SUMS.sig", "the SHA256SUMS signature of random 1.0.0"],
  ])("%s over the limit is refused the same way", async (file, what) => {
    reg.respond = serve(`/files/hostile/random/1.0.0/${file}`, Buffer.alloc(LIMIT + 1, 0x20), true);
    const before = reg.count(ARCHIVE);
    const r = await acquireInChild(ADDRESS(), "1.0.0", env());
    expect(r.ok).toBe(false);
    expect(r.message).toContain(`${what}: https://${reg.host}/files/hostile/random/1.0.0/${file} sent more than the limit of 64.0 KiB`);
    expect(reg.count(ARCHIVE)).toBe(before);
  });

  it("a mirror's index.json over the limit names the mirror", async () => {
    reg.respond = serve("/mirror/registry.opentofu.org/hostile/random/index.json", Buffer.alloc(LIMIT + 1, 0x20), false);
    const r = await acquireInChild("registry.opentofu.org/hostile/random", "1.0.0", mirrorSandbox(`https://${reg.host}/mirror/`, { TF_BRIDGE_MAX_METADATA_BYTES: String(LIMIT) }).env);
    expect(r.ok).toBe(false);
    expect(r.message).toContain(`listing versions of hostile/random on network mirror https://${reg.host}/mirror/: https://${reg.host}/mirror/registry.opentofu.org/hostile/random/index.json is ${LIMIT + 1} bytes`);
  });

  it("a gzip bomb (32 MiB of JSON in a 32 KiB answer): counted as it unpacks, and the message says what it announced", async () => {
    const bomb = gzipSync(Buffer.concat([Buffer.from('{"versions":['), Buffer.alloc(32 * 1024 * 1024, 0x20), Buffer.from("]}")]));
    expect(bomb.length).toBeLessThan(LIMIT);
    reg.respond = (p, _req, res) => {
      if (p !== VERSIONS_PATH) return false;
      res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip", "content-length": String(bomb.length) });
      res.end(bomb);
      return true;
    };
    const r = await acquireInChild(ADDRESS(), "1.0.0", env());
    expect(r.ok).toBe(false);
    expect(r.message).toContain(
      `https://${reg.host}${VERSIONS_PATH} sent more than the limit of 64.0 KiB (it announced ${bomb.length} bytes, gzip-compressed): if the document really is that large, raise TF_BRIDGE_MAX_METADATA_BYTES`,
    );
  });

  it("a 400 MiB chunked versions document with the default limit: stops reading at 16 MiB, the memory stays small", async () => {
    const TOTAL = 400 * 1024 * 1024;
    let sent = 0;
    reg.respond = (p, _req, res) => {
      if (p !== VERSIONS_PATH) return false;
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      chunk.write('{"versions":[');
      void (async () => {
        while (sent < TOTAL && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) await new Promise<void>((r) => (res.once("drain", r), res.once("close", r)));
        }
        res.end();
      })();
      return true;
    };
    const r = await acquireInChild(ADDRESS(), "1.0.0", sandbox(reg.caFile).env);
    expect(r.ok).toBe(false);
    expect(r.message).toContain(`sent more than the limit of 16.0 MiB (it did not announce a size): if the document really is that large, raise TF_BRIDGE_MAX_METADATA_BYTES (bytes, now 16777216)`);
    // The client hung up long before the end (socket buffers hold a few MiB more than it read).
    expect(sent).toBeLessThan(64 * 1024 * 1024);
    console.log(`400 MiB hostile versions document: refused after the server sent ${(sent / 1024 ** 2).toFixed(0)} MiB, in ${r.ms} ms, child peak RSS ${((r.maxRssKiB ?? 0) / 1024).toFixed(0)} MiB`);
    expect(r.maxRssKiB).toBeLessThan(300 * 1024);
  }, 60_000);
});

describe("download URLs that are not http(s)", () => {
  /** The fake's download answer for 1.0.0 with one field replaced. */
  const downloadAnswer = (field: string, value: string) => (p: string, _req: IncomingMessage, res: ServerResponse): boolean => {
    if (!/^\/v1\/providers\/hostile\/random\/1\.0\.0\/download\//.test(p)) return false;
    const files = `https://${reg.host}/files/hostile/random/1.0.0`;
    const doc: Record<string, unknown> = {
      protocols: ["5.0"],
      filename: `terraform-provider-random_1.0.0_${CURRENT_PLATFORM}.zip`,
      download_url: `${files}/terraform-provider-random_1.0.0_${CURRENT_PLATFORM}.zip`,
      shasums_url: `${files}/SHA256SUMS`,
      shasums_signature_url: `${files}/SHA256SUMS.sig`,
      shasum: "0".repeat(64),
      signing_keys: { gpg_public_keys: [] },
      [field]: value,
    };
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(doc));
    return true;
  };

  it.each([
    ["download_url", "file:///etc/passwd", "a file URL"],
    ["download_url", "ftp://127.0.0.1/terraform-provider-random.zip", "a ftp URL"],
    ["shasums_url", "data:text/plain,0000", "a data URL"],
    ["shasums_signature_url", "file:///tmp/SHA256SUMS.sig", "a file URL"],
  ])("%s %s: refused at once (no retry), naming the registry and the URL", async (field, value, kind) => {
    reg.respond = downloadAnswer(field, value);
    const r = await acquireInChild(ADDRESS(), "1.0.0", sandbox(reg.caFile).env);
    expect(r).toMatchObject({ ok: false, kind: "failed-precondition" });
    expect(r.message).toContain(
      `the registry at ${reg.host} gives ${field} ${value} in https://${reg.host}/v1/providers/hostile/random/1.0.0/download/${CURRENT_PLATFORM.replace("_", "/")}, ${kind}: ` +
        `only http and https downloads are supported; tell its operator, or install from another source`,
    );
    expect(r.statuses.some((s) => /trying again/.test(s))).toBe(false);
    expect(r.message).not.toMatch(/cannot reach|network error/);
  });

  it("a download_url that is no URL at all is named as such", async () => {
    reg.respond = downloadAnswer("download_url", "http://[::1");
    const r = await acquireInChild(ADDRESS(), "1.0.0", sandbox(reg.caFile).env);
    expect(r.message).toContain(`the registry at ${reg.host} gives download_url "http://[::1" in https://${reg.host}/v1/providers/hostile/random/1.0.0/download/`);
    expect(r.message).toContain("which is not a URL: tell its operator");
  });

  it("a mirror's archive url file:///…: refused at once, naming the mirror", async () => {
    reg.respond = (p, _req, res) => {
      if (p !== "/mirror/registry.opentofu.org/hostile/random/1.0.0.json") return false;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ archives: { [CURRENT_PLATFORM]: { url: "file:///etc/passwd", hashes: [] } } }));
      return true;
    };
    const r = await acquireInChild("registry.opentofu.org/hostile/random", "1.0.0", mirrorSandbox(`https://${reg.host}/mirror/`).env);
    expect(r.ok).toBe(false);
    expect(r.message).toContain(`network mirror https://${reg.host}/mirror/ gives the archive url for ${CURRENT_PLATFORM} file:///etc/passwd in https://${reg.host}/mirror/registry.opentofu.org/hostile/random/1.0.0.json, a file URL`);
    expect(r.statuses.some((s) => /trying again/.test(s))).toBe(false);
  });
});

describe("TF_BRIDGE_ENFORCE_SIGNATURE=true", () => {
  const ENFORCE = { TF_BRIDGE_ENFORCE_SIGNATURE: "true" };

  it("a signed package installs, the key is recorded beside it, and the cached package is used again", async () => {
    const sb = sandbox(reg.caFile, ENFORCE);
    const r = await acquireInChild(ADDRESS(), "1.0.0", sb.env);
    expect(r, JSON.stringify(r)).toMatchObject({ ok: true, version: "1.0.0" });
    expect(readFileSync(`${dirname(r.path!)}.zh`, "utf8")).toMatch(/^zh:[0-9a-f]{64}\nsigned-by [0-9A-F]{16}\n$/);
    const hits = reg.hits.length;
    const again = await acquireInChild(ADDRESS(), "1.0.0", sb.env);
    expect(again).toMatchObject({ ok: true, path: r.path });
    expect(reg.hits.length).toBe(hits);
  });

  it("a registry that gives no signing keys: refused before the archive is downloaded, naming the setting", async () => {
    const before = reg.count(ARCHIVE);
    const r = await acquireInChild(ADDRESS(), "1.0.2", sandbox(reg.caFile, ENFORCE).env);
    expect(r).toMatchObject({ ok: false, kind: "failed-precondition" });
    expect(r.message).toBe(
      `${reg.host}/hostile/random 1.0.2 from ${reg.host}: ${reg.host} publishes no signing keys for it, so its signature cannot be checked, and TF_BRIDGE_ENFORCE_SIGNATURE=true ` +
        `accepts only a package whose SHA256SUMS signature was verified. Install it from a provider registry that signs its packages, or unset TF_BRIDGE_ENFORCE_SIGNATURE to accept it`,
    );
    expect(reg.count(ARCHIVE)).toBe(before);
  });

  it("without the setting the same package installs, with a warning (checksum only)", async () => {
    const r = await acquireInChild(ADDRESS(), "1.0.2", sandbox(reg.caFile).env);
    expect(r).toMatchObject({ ok: true, version: "1.0.2" });
    expect(r.warnings.join("\n")).toMatch(/publishes no signing keys for hostile\/random 1\.0\.2/);
    expect(readFileSync(`${dirname(r.path!)}.zh`, "utf8")).toMatch(/^zh:[0-9a-f]{64}\n$/);
  });

  it("a network mirror (hashes, no signatures): refused before anything is downloaded", async () => {
    const before = reg.count(/\/mirror\/.*\/1\.0\.0\.json$/) + reg.count(ARCHIVE);
    const r = await acquireInChild("registry.opentofu.org/hostile/random", "1.0.0", mirrorSandbox(`https://${reg.host}/mirror/`, ENFORCE).env);
    expect(r.ok).toBe(false);
    expect(r.message).toContain(`hostile/random 1.0.0 from network mirror https://${reg.host}/mirror/: a network mirror carries no signatures, only hashes, and TF_BRIDGE_ENFORCE_SIGNATURE=true`);
    expect(reg.count(/\/mirror\/.*\/1\.0\.0\.json$/) + reg.count(ARCHIVE)).toBe(before);
  });

  it("a package cached from a mirror (no signature recorded) is refused from the cache, naming it and what to do", async () => {
    const sb = mirrorSandbox(`https://${reg.host}/mirror/`);
    const first = await acquireInChild("registry.opentofu.org/hostile/random", "1.0.3", sb.env);
    expect(first, JSON.stringify(first)).toMatchObject({ ok: true, version: "1.0.3" });
    const dir = dirname(first.path!);
    const r = await acquireInChild("registry.opentofu.org/hostile/random", "1.0.3", { ...sb.env, ...ENFORCE });
    expect(r.ok).toBe(false);
    expect(r.message).toContain(`registry.opentofu.org/hostile/random 1.0.3 in the cache at ${dir}: no verified signature is recorded for it`);
    expect(r.message).toContain(`Remove ${dir} so that it is installed again from its registry, or unset TF_BRIDGE_ENFORCE_SIGNATURE to accept it`);
    // Without the setting the cached package is used as before.
    expect(await acquireInChild("registry.opentofu.org/hostile/random", "1.0.3", sb.env)).toMatchObject({ ok: true, path: first.path });
  });

  it("a value other than true or false is refused, naming the setting", async () => {
    const r = await acquireInChild(ADDRESS(), "1.0.0", sandbox(reg.caFile, { TF_BRIDGE_ENFORCE_SIGNATURE: "yes" }).env);
    expect(r).toMatchObject({ ok: false, kind: "invalid-argument", message: 'TF_BRIDGE_ENFORCE_SIGNATURE="yes" is not true or false; set it to true or false or unset it (default false)' });
  });
});
