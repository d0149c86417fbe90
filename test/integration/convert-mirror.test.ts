// `convert` with no route to any registry: its first step gives Pulumi's Terraform converter a loopback stand-in for
// the registries (src/commands/registry-proxy.ts), which answers the converter's version questions from what the
// plugin's installer can install, here only a filesystem mirror, or only a network mirror (the loopback fake of
// test/support/registry-server.ts under /mirror/). HTTPS_PROXY points at a loopback port nothing listens on, so any
// attempt to reach a registry by the network fails. The converter is the project's stand-in
// (test/peers/pulumi/converter), which asks the same questions Pulumi's does and replays the recorded `terraform-shop`
// conversion only when the answer resolves to the version it was recorded with (hashicorp/local 2.5.3); the second
// step generates the TypeScript program and the provider's SDK from the installed plugin, which installs the provider
// from the same mirror.
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { request, type IncomingMessage } from "node:http";
import { get } from "node:https";
import type { Socket } from "node:net";
import { connect } from "node:tls";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closedPort, RECORDINGS, standInConverter } from "../support/converter-standin.js";
import { startRegistryProxy, type ProxyEvent } from "../../src/commands/registry-proxy.js";
import { hostsMissing, languageSandbox } from "../support/languages.js";
import { peerPath } from "../support/peers.js";
import { spawnAsync } from "../support/processes.js";
import { PLUGIN_BIN, type PulumiSandbox } from "../support/pulumi.js";
import { CURRENT_PLATFORM, FakeRegistry } from "../support/registry-server.js";
import { tempDir } from "../support/temp.js";
import { inCi } from "../support/tool-missing.js";

const REPLAYED = /stand-in for Pulumi's Terraform converter: replayed recording terraform-shop/;

const built = standInConverter();
if ("missing" in built && inCi(process.env)) throw new Error(`convert behind a mirror cannot be tested in CI: ${built.missing}`);
const skip = "missing" in built || hostsMissing();

/** CONNECT through the proxy at `port`: the status, and the tunnel when it was granted. */
function tunnel(port: number, target: string): Promise<{ status: number; socket: Socket }> {
  return new Promise((ok, fail) => {
    const req = request({ host: "127.0.0.1", port, method: "CONNECT", path: target });
    req.once("connect", (res: IncomingMessage, socket: Socket) => ok({ status: res.statusCode ?? 0, socket }));
    req.once("error", fail);
    req.end();
  });
}

/** GET https://host/path through the proxy, trusting only `ca`. */
async function through(port: number, host: string, path: string, ca: string): Promise<{ status: number; body: string }> {
  const { status, socket } = await tunnel(port, `${host}:443`);
  if (status !== 200) throw new Error(`CONNECT ${host}:443 answered ${status}`);
  return new Promise((ok, fail) => {
    const req = get({ host, port: 443, path, createConnection: () => connect({ socket, servername: host, ca }) }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (d: string) => (body += d));
      res.once("end", () => ok({ status: res.statusCode ?? 0, body }));
    });
    req.once("error", fail);
  });
}

describe("the registry stand-in convert gives the converter", () => {
  it("answers discovery and version listings over TLS its CA bundle verifies, refuses every other host, and leaves nothing when stopped", async () => {
    const tmp = tempDir("tfbridge-registry-proxy-");
    const events: ProxyEvent[] = [];
    const asked: string[] = [];
    const proxy = await startRegistryProxy(tmp, {
      hosts: ["registry.opentofu.org", "registry.terraform.io"],
      versions: async (a) => {
        asked.push(`${a.host}/${a.namespace}/${a.type}`);
        if (a.type === "broken") throw new Error("no provider installation method applies");
        return a.type === "local" ? ["2.5.3", "2.4.1"] : [];
      },
      env: {},
      onEvent: (e) => events.push(e),
    });
    const port = Number(new URL(proxy.env["HTTPS_PROXY"]!).port);
    const ca = readFileSync(proxy.env["SSL_CERT_FILE"]!, "utf8");
    try {
      expect(proxy.env).toMatchObject({ NO_PROXY: "", no_proxy: "", HTTP_PROXY: proxy.env["HTTPS_PROXY"] });
      expect(await through(port, "registry.opentofu.org", "/.well-known/terraform.json", ca)).toEqual({ status: 200, body: JSON.stringify({ "providers.v1": "/v1/providers/" }) });
      const listing = await through(port, "registry.terraform.io", "/v1/providers/hashicorp/local/versions", ca);
      expect(listing.status).toBe(200);
      expect((JSON.parse(listing.body) as { versions: { version: string }[] }).versions.map((v) => v.version)).toEqual(["2.5.3", "2.4.1"]);
      // None: the registry protocol's "provider not known"; so is a provider the installer cannot be asked about.
      expect((await through(port, "registry.opentofu.org", "/v1/providers/hashicorp/nothing/versions", ca)).status).toBe(404);
      const broken = await through(port, "registry.opentofu.org", "/v1/providers/hashicorp/broken/versions", ca);
      expect(broken.status).toBe(404);
      expect(broken.body).toContain("no provider installation method applies");
      expect(asked).toEqual(["registry.terraform.io/hashicorp/local", "registry.opentofu.org/hashicorp/nothing", "registry.opentofu.org/hashicorp/broken"]);
      // Any other host, or port, is refused: nothing is passed to the network.
      for (const target of ["github.com:443", "registry.opentofu.org:80", "127.0.0.1:22"]) {
        expect((await tunnel(port, target)).status, target).toBe(403);
      }
      expect(events.filter((e) => e.kind === "refused").map((e) => (e as { target: string }).target)).toEqual(["github.com:443", "registry.opentofu.org:80", "127.0.0.1:22"]);
      // The certificate names the registry hosts only: a host it does not name fails verification.
      const { socket } = await tunnel(port, "registry.opentofu.org:443");
      const wrongName = await new Promise<string>((ok) => {
        const s = connect({ socket, servername: "example.com", ca }, () => ok("verified"));
        s.once("error", (e) => ok(e.message));
      });
      expect(wrongName).toMatch(/Hostname\/IP does not match certificate's altnames/);
    } finally {
      proxy.stop();
    }
    expect(existsSync(proxy.dir), "the CA bundle's folder is removed").toBe(false);
    await expect(tunnel(port, "registry.opentofu.org:443")).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe.skipIf(skip)("convert with no route to any registry", () => {
  let sandbox: PulumiSandbox;
  let reg: FakeRegistry;
  let noRoute: string;
  beforeAll(async () => {
    sandbox = languageSandbox();
    reg = await FakeRegistry.start({ providers: { "hashicorp/local": [{ version: "2.5.3" }] }, binaries: { local: peerPath("local") } });
    noRoute = `http://127.0.0.1:${await closedPort()}`;
  }, 600_000);
  afterAll(async () => {
    await reg?.stop();
    sandbox?.cleanup();
  });

  /** The recorded project in a folder `shop`, converted to TypeScript (generated only) with `installation` as the CLI configuration's. */
  async function convertWith(installation: string): Promise<{ code: number; out: string; output: string; root: string }> {
    const root = tempDir("tfbridge-convert-mirror-");
    const shop = join(root, "shop");
    cpSync(join(RECORDINGS, "terraform-shop", "input"), shop, { recursive: true });
    const rc = join(root, "cli.tfrc");
    writeFileSync(rc, `provider_installation {\n${installation}}\n`);
    const env: NodeJS.ProcessEnv = {
      ...sandbox.env,
      PATH: `${(built as { dir: string }).dir}:${sandbox.env["PATH"] ?? ""}`,
      PULUMI_CONVERTER_RECORDINGS: RECORDINGS,
      TF_CLI_CONFIG_FILE: rc,
      PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR: join(root, "provider-cache"),
      HTTPS_PROXY: noRoute,
      HTTP_PROXY: noRoute,
      // The loopback network mirror is reached directly, as a company's mirror would be.
      NO_PROXY: "127.0.0.1,localhost",
      NODE_EXTRA_CA_CERTS: reg.caFile,
      TMPDIR: root,
    };
    const r = await spawnAsync(PLUGIN_BIN, ["convert", "--language", "typescript", "--generate-only", "--out", "../shop-ts"], { cwd: shop, env });
    return { code: r.status ?? -1, out: join(root, "shop-ts"), output: `${r.stdout}\n${r.stderr}`, root };
  }

  function expectConverted(r: { code: number; out: string; output: string; root: string }): void {
    expect(r.code, r.output).toBe(0);
    expect(r.output).toMatch(REPLAYED);
    expect(r.output).toContain("convert: the converter asked for the versions of registry.opentofu.org/hashicorp/local: answered from what the plugin can install, 2.5.3");
    expect(readFileSync(join(r.out, "index.ts"), "utf8")).toContain('new local.File("motd"');
    expect(existsSync(join(r.out, "sdks", "local", "package.json")), "the provider's SDK, generated from the plugin with the provider from the mirror").toBe(true);
    // The stand-in's CA and bundle are gone with the step; the step's log, kept, shows what it answered.
    const left = readdirSync(r.root).filter((n) => n.startsWith("pulumi-tf-convert-"));
    expect(left).toEqual([expect.stringMatching(/^pulumi-tf-convert-shop-\d+\.log$/)]);
    expect(readFileSync(join(r.root, left[0]!), "utf8")).toContain("convert: registry stand-in: GET https://registry.opentofu.org/v1/providers/hashicorp/local/versions → 200 (1 versions)");
  }

  it("only a filesystem mirror: the converter's versions come from it", async () => {
    const mirror = tempDir("tfbridge-fs-mirror-");
    const dir = join(mirror, "registry.opentofu.org", "hashicorp", "local", "2.5.3", CURRENT_PLATFORM);
    mkdirSync(dir, { recursive: true });
    copyFileSync(peerPath("local"), join(dir, "terraform-provider-local_v2.5.3"));
    const hits = reg.hits.length;
    expectConverted(await convertWith(`  filesystem_mirror {\n    path = "${mirror}"\n  }\n`));
    expect(reg.hits.length, "the loopback registry and network mirror were not asked").toBe(hits);
  }, 600_000);

  it("only a network mirror: the converter's versions come from it, and no registry is asked", async () => {
    const before = reg.hits.length;
    expectConverted(await convertWith(`  network_mirror {\n    url = "https://${reg.host}/mirror/"\n  }\n`));
    const hits = reg.hits.slice(before);
    expect(hits.filter((h) => /^\/mirror\/registry\.opentofu\.org\/hashicorp\/local\/index\.json$/.test(h)).length).toBeGreaterThan(0);
    // Its archive is under /files/, as the mirror's index says; the registry protocol's paths were never asked.
    expect(hits.filter((h) => !/^\/(mirror|files)\//.test(h)), "only the mirror was asked").toEqual([]);
  }, 600_000);
});
