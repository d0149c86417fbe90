// A fresh machine, end to end and offline: SDKs generated in one Pulumi home with TF_BRIDGE_PLUGIN_DOWNLOAD_URL naming a
// release served on a loopback port run in other, empty homes (automatic plugin acquisition on), where the engine
// downloads this plugin from that server and nowhere else; a tampered tarball is refused against the release's
// checksum, and a server that is down or lacks the version fails naming the URL and the manual install command.
//
// The loopback HTTP server below is a fake: it stands in for a release host (GitHub releases, an https mirror), which no
// real peer provides here and this machine cannot reach. It serves the release directory as `npm run release` lays it
// out (only this machine's tarball, the one packagePlugin() builds once per run, and the checksums file), logs every
// request, and is also every child's HTTP(S) proxy, so any attempt to reach another host (Pulumi's Go bridge releases
// on GitHub or get.pulumi.com) lands in its log instead of failing unseen.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, cpSync, createReadStream, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checksumsFileName, formatChecksums, releaseAssetName } from "../../src/release.js";
import { VERSION } from "../../src/version.js";
import { isOurExecutable, packagePlugin } from "../support/e2e.js";
import { goEnv, hostsMissing } from "../support/languages.js";
import { generateNodeSdk, removeScratch, scratch, TypeScriptScenario, withLanguageHosts, YamlScenario } from "../support/lifecycle.js";
import { peerPath } from "../support/peers.js";
import { PULUMI_PYTHON_SDK, pythonBase, pythonVenv } from "../support/python.js";
import { PULUMI_GO_SDK } from "../support/pulumi-tools.js";
import { expectSuccess, pulumiSandbox, runPulumi, type PulumiSandbox, type RunResult } from "../support/pulumi.js";

const TARBALL = releaseAssetName(VERSION, "linux-amd64");
const PLUGIN_DIR = `resource-terraform-provider-v${VERSION}`;

/** One request the loopback server saw: `GET /release/<file>`, or `CONNECT host:443` when a child used it as a proxy. */
interface Seen {
  method: string;
  url: string;
  status: number;
}

/**
 * Serves `routes` (URL path → file) on 127.0.0.1 and answers everything else 404; a CONNECT (a child proxying to another
 * host) is refused and logged.
 */
async function releaseServer(routes: Map<string, string>): Promise<{ server: Server; url: string; log: Seen[] }> {
  const log: Seen[] = [];
  const server = createServer((req, res) => {
    const file = routes.get(req.url ?? "");
    const status = req.method === "GET" && file !== undefined ? 200 : 404;
    log.push({ method: req.method ?? "", url: req.url ?? "", status });
    if (status !== 200) {
      res.writeHead(404).end("not found\n");
      return;
    }
    res.writeHead(200, { "content-type": "application/gzip", "content-length": statSync(file!).size });
    createReadStream(file!).pipe(res);
  });
  server.on("connect", (req, socket) => {
    log.push({ method: "CONNECT", url: req.url ?? "", status: 403 });
    socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, log };
}

/** A loopback port nothing listens on: a release server that is down. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise((resolve) => s.close(resolve));
  return port;
}

const sha256 = (file: string): string => createHash("sha256").update(readFileSync(file)).digest("hex");
const GO_SDK_MODULE = "github.com/pulumi/pulumi-terraform-provider/sdks/go/random";
const GO_MAIN = `package main

import (
	"github.com/pulumi/pulumi-terraform-provider/sdks/go/random/random"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		pet, err := random.NewPet(ctx, "pet", &random.PetArgs{Length: pulumi.Float64(3)})
		if err != nil {
			return err
		}
		ctx.Export("name", pet.ID())
		return nil
	})
}
`;
const plain = (r: RunResult): string => `${r.stdout}\n${r.stderr}`.replace(/\x1b\[[0-9;]*m/g, "");

let serverUrl = "";
let release = ""; // serverUrl + /release: the release location the SDKs name
let log: Seen[] = [];
let server: Server | undefined;
let releaseDir = "";
const homes: PulumiSandbox[] = [];

/**
 * An empty Pulumi home as a fresh machine has it: no plugin installed, automatic plugin acquisition on, no release
 * location of its own in the environment, and the loopback server as its HTTP(S) proxy (Go never proxies loopback
 * addresses, so the release itself is fetched directly, and any other host is logged).
 */
function freshHome(): PulumiSandbox {
  const home = pulumiSandbox();
  homes.push(home);
  const env = withLanguageHosts(home.env);
  for (const key of ["PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION", "TF_BRIDGE_PLUGIN_DOWNLOAD_URL", "PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES"]) delete env[key];
  for (const key of ["HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"]) env[key] = serverUrl;
  // The SDKs' gRPC clients (grpc-js, grpcio) would proxy their own loopback connections to the engine too.
  for (const key of ["NO_PROXY", "no_proxy"]) env[key] = "127.0.0.1,localhost";
  home.env = env;
  return home;
}

/** What `pulumi plugin ls --json` lists in a home. */
async function pluginsIn(home: PulumiSandbox): Promise<{ name: string; kind: string; version: string }[]> {
  const r = expectSuccess(await runPulumi(["plugin", "ls", "--json"], { cwd: home.home, env: home.env }), "pulumi plugin ls");
  return JSON.parse(r.stdout) as { name: string; kind: string; version: string }[];
}

/** The home holds our plugin at our version, and the server's log shows the tarball fetched since `mark`, nothing else. */
async function expectDownloadedFromRelease(home: PulumiSandbox, mark: number): Promise<void> {
  expect((await pluginsIn(home)).map((p) => `${p.kind} ${p.name} ${p.version}`)).toEqual([`resource terraform-provider ${VERSION}`]);
  const exe = join(home.home, "plugins", PLUGIN_DIR, "pulumi-resource-terraform-provider");
  expect(isOurExecutable(exe)).toBe(true);
  expect(log.slice(mark)).toEqual([{ method: "GET", url: `/release/${TARBALL}`, status: 200 }]);
}

/** Every argument list a home's steps ran (to prove no step installed by --file). */
const stepsRun: string[][] = [];
async function step(dir: string, home: PulumiSandbox, args: string[]): Promise<RunResult> {
  stepsRun.push(args);
  return expectSuccess(await runPulumi(args, { cwd: dir, env: home.env }), `pulumi ${args.join(" ")} in ${dir}`);
}

/**
 * A project whose dependencies are in place (Python, Go) in an empty home: `pulumi install` downloads the plugin from
 * the release, then a stack's whole life (its random_pet's three-word name as the output `name`) fetches nothing more.
 */
async function installAndLive(dir: string, home: PulumiSandbox): Promise<void> {
  const mark = log.length;
  await step(dir, home, ["install", "--no-dependencies"]);
  await expectDownloadedFromRelease(home, mark);
  await step(dir, home, ["stack", "init", "dev"]);
  await step(dir, home, ["up", "--yes", "--skip-preview"]);
  const outputs = JSON.parse((await step(dir, home, ["stack", "output", "--json"])).stdout) as { name: string };
  expect(outputs.name.split("-")).toHaveLength(3);
  await step(dir, home, ["preview", "--expect-no-changes"]);
  await step(dir, home, ["destroy", "--yes", "--skip-preview"]);
  expect(log.slice(mark)).toHaveLength(1);
}

beforeAll(async () => {
  releaseDir = scratch("tfbridge-release-dir-");
  copyFileSync(packagePlugin(), join(releaseDir, TARBALL));
  writeFileSync(join(releaseDir, checksumsFileName(VERSION)), formatChecksums(new Map([[TARBALL, sha256(join(releaseDir, TARBALL))]])));
  // The same executable under another name: a release whose tarball was swapped for one built elsewhere.
  const evil = scratch("tfbridge-tampered-");
  writeFileSync(join(evil, "pulumi-resource-terraform-provider"), "#!/bin/sh\necho tampered\n", { mode: 0o755 });
  execFileSync("tar", ["-czf", join(evil, TARBALL), "-C", evil, "pulumi-resource-terraform-provider"]);
  const routes = new Map([
    [`/release/${TARBALL}`, join(releaseDir, TARBALL)],
    [`/release/${checksumsFileName(VERSION)}`, join(releaseDir, checksumsFileName(VERSION))],
    [`/tampered/${TARBALL}`, join(evil, TARBALL)],
  ]);
  ({ server, url: serverUrl, log } = await releaseServer(routes));
  release = `${serverUrl}/release`;
}, 1_200_000);

afterAll(async () => {
  for (const h of homes) h.cleanup();
  removeScratch();
  await new Promise((resolve) => server?.close(resolve));
});

describe.skipIf(hostsMissing())("a fresh machine installs the plugin from the release location its SDKs name", () => {
  /** The home the SDKs are generated in: the plugin installed from the release, verified against its checksum. */
  let genHome: PulumiSandbox;
  let yamlProject = "";
  let tsSdk = "";
  let pySdk = "";
  let goSdk = "";

  beforeAll(async () => {
    genHome = freshHome();
    const hex = readFileSync(join(releaseDir, checksumsFileName(VERSION)), "utf8").split(" ")[0]!;
    const mark = log.length;
    await step(genHome.home, genHome, ["plugin", "install", "resource", "terraform-provider", VERSION, "--server", release, "--checksum", hex]);
    await expectDownloadedFromRelease(genHome, mark);
    const gen = { ...genHome.env, TF_BRIDGE_PLUGIN_DOWNLOAD_URL: release };
    yamlProject = scratch("tfbridge-fresh-yaml-");
    writeFileSync(join(yamlProject, "Pulumi.yaml"), "name: fresh-yaml\nruntime: yaml\n");
    await step(yamlProject, { ...genHome, env: gen }, ["package", "add", "terraform-provider", peerPath("random")]);
    tsSdk = join((await generateNodeSdk(["terraform-provider", peerPath("random")], scratch("tfbridge-fresh-ts-"), gen)).sdk, "bin");
    pySdk = join(scratch("tfbridge-fresh-py-"), "out");
    await step(genHome.home, { ...genHome, env: gen }, ["package", "gen-sdk", "terraform-provider", peerPath("random"), "--language", "python", "--out", pySdk]);
    goSdk = join(scratch("tfbridge-fresh-go-"), "out");
    await step(genHome.home, { ...genHome, env: gen }, ["package", "gen-sdk", "terraform-provider", peerPath("random"), "--language", "go", "--out", goSdk]);
  }, 600_000);

  it("YAML: pulumi install, up, preview --expect-no-changes and destroy in an empty home download it from the loopback release", async () => {
    const decl = join(yamlProject, "sdks", "random", "random-0.0.0.yaml");
    expect(readFileSync(decl, "utf8")).toContain(`downloadUrl: ${release}\n`);
    // `pulumi install` installs a YAML project's `packages:` from Pulumi.yaml alone, and `package add` writes the entry's
    // pluginDownloadURL only from Pulumi's `--server`, not from the schema: without it the engine would look where the
    // Go bridge is published (docs/releasing.md). The entry says it, as `package add --server` would have written it.
    const projectFile = join(yamlProject, "Pulumi.yaml");
    const added = readFileSync(projectFile, "utf8");
    expect(added).not.toContain("pluginDownloadURL");
    writeFileSync(projectFile, `${added.trimEnd()}\n    pluginDownloadURL: ${release}\n`);

    const home = freshHome();
    expect(await pluginsIn(home)).toEqual([]);
    const dir = scratch("tfbridge-fresh-yaml-run-");
    cpSync(join(yamlProject, "sdks"), join(dir, "sdks"), { recursive: true });
    const packages = readFileSync(projectFile, "utf8").replace(/^name: .*\nruntime: yaml\n/, "");
    const yaml = YamlScenario.inline(dir, "fresh-yaml", `${packages}resources:\n  pet:\n    type: random:Pet\n    properties:\n      length: 3\noutputs:\n  name: \${pet.id}\n`, home.env);
    const mark = log.length;
    await step(dir, home, ["install"]);
    await expectDownloadedFromRelease(home, mark);
    expect(readFileSync(join(dir, "sdks", "random", "random-0.0.0.yaml"), "utf8")).toContain(`downloadUrl: ${release}\n`);
    await step(dir, home, ["stack", "init", "dev"]);
    await step(dir, home, ["up", "--yes", "--skip-preview"]);
    expect(((await yaml.outputs())["name"] as string).split("-")).toHaveLength(3);
    await step(dir, home, ["preview", "--expect-no-changes"]);
    await step(dir, home, ["destroy", "--yes", "--skip-preview"]);
    expect(await yaml.resourceNames()).toEqual([]);
    expect(log.slice(mark)).toHaveLength(1); // the one download: nothing fetched again, nothing else contacted
  }, 600_000);

  it("TypeScript: pulumi install, up, preview --expect-no-changes and destroy in an empty home download it from the loopback release", async () => {
    expect((JSON.parse(readFileSync(join(tsSdk, "package.json"), "utf8")) as { pulumi: Record<string, unknown> }).pulumi).toMatchObject({ name: "terraform-provider", version: VERSION, server: release });
    const home = freshHome();
    expect(await pluginsIn(home)).toEqual([]);
    const ts = await TypeScriptScenario.create(home, "fresh-ts", 'import * as random from "@pulumi/random";\nexport const name = new random.Pet("pet", { length: 3 }).id;\n', { "@pulumi/random": tsSdk });
    // node_modules is linked from the cached install (no npm registry here): `--no-dependencies` skips npm, and the
    // plugins are what the Node.js language host reports from the SDK's package.json.
    const mark = log.length;
    await step(ts.dir, home, ["install", "--no-dependencies"]);
    await expectDownloadedFromRelease(home, mark);
    await step(ts.dir, home, ["up", "--yes", "--skip-preview"]);
    expect(((await ts.outputs())["name"] as string).split("-")).toHaveLength(3);
    await step(ts.dir, home, ["preview", "--expect-no-changes"]);
    await step(ts.dir, home, ["destroy", "--yes", "--skip-preview"]);
    expect(await ts.resourceNames()).toEqual([]);
    expect(log.slice(mark)).toHaveLength(1);
  }, 600_000);

  it("Python: pulumi install, up, preview --expect-no-changes and destroy in an empty home download it from the loopback release", async () => {
    const sdk = join(pySdk, "python");
    const plugin = JSON.parse(readFileSync(join(sdk, "pulumi_random", "pulumi-plugin.json"), "utf8")) as Record<string, unknown>;
    expect(plugin).toMatchObject({ resource: true, name: "terraform-provider", version: VERSION, server: release });
    // The virtualenv (pulumi PULUMI_PYTHON_SDK from the cached base) holds the SDK installed from its folder, no index: the
    // project's own dependencies are there, so `pulumi install --no-dependencies` leaves pip alone.
    const dir = scratch("tfbridge-fresh-py-run-");
    const python = await pythonVenv(await pythonBase(), dir);
    execFileSync(python, ["-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "--no-index", "--disable-pip-version-check", sdk], { stdio: ["ignore", "ignore", "inherit"] });
    writeFileSync(join(dir, "Pulumi.yaml"), "name: fresh-py\nruntime:\n  name: python\n  options:\n    toolchain: pip\n    virtualenv: venv\n");
    writeFileSync(join(dir, "requirements.txt"), `pulumi==${PULUMI_PYTHON_SDK}\n`);
    writeFileSync(join(dir, "__main__.py"), 'import pulumi\nimport pulumi_random as random\n\npulumi.export("name", random.Pet("pet", length=3).id)\n');
    const home = freshHome();
    expect(await pluginsIn(home)).toEqual([]);
    await installAndLive(dir, home);
  }, 600_000);

  it("Go: pulumi install, up, preview --expect-no-changes and destroy in an empty home download it from the loopback release", async () => {
    const sdk = join(goSdk, "go");
    expect(JSON.parse(readFileSync(join(sdk, "random", "pulumi-plugin.json"), "utf8"))).toMatchObject({ resource: true, name: "terraform-provider", version: VERSION, server: release });
    const dir = scratch("tfbridge-fresh-go-run-");
    cpSync(sdk, join(dir, "sdk-random"), { recursive: true });
    writeFileSync(join(dir, "Pulumi.yaml"), "name: fresh-go\nruntime: go\n");
    writeFileSync(join(dir, "go.mod"), `module freshgo\n\ngo 1.25\n\nrequire github.com/pulumi/pulumi/sdk/v3 ${PULUMI_GO_SDK}\n\nreplace ${GO_SDK_MODULE} => ./sdk-random\n`);
    writeFileSync(join(dir, "main.go"), GO_MAIN);
    const home = freshHome();
    // Offline: modules only from the machine's module cache (filled by the Go tests), no checksum database.
    home.env = { ...home.env, ...goEnv(), GOPROXY: "off", GOSUMDB: "off", GOFLAGS: "-mod=mod" };
    execFileSync("go", ["mod", "tidy"], { cwd: dir, env: home.env, stdio: ["ignore", "ignore", "pipe"] });
    expect(await pluginsIn(home)).toEqual([]);
    await installAndLive(dir, home);
  }, 900_000);

  it("no step installed by --file, and nothing but the loopback release was contacted", () => {
    expect(stepsRun.length).toBeGreaterThan(0);
    expect(stepsRun.filter((args) => args.includes("--file"))).toEqual([]);
    expect(log.filter((s) => s.method === "CONNECT" || !s.url.startsWith("/release/"))).toEqual([]);
  });
});

describe("what a fresh machine refuses, and the errors it gives", () => {
  it("a tampered tarball is refused against the release's checksum, and nothing is installed", async () => {
    const home = freshHome();
    const hex = sha256(join(releaseDir, TARBALL));
    const mark = log.length;
    const r = await runPulumi(["plugin", "install", "resource", "terraform-provider", VERSION, "--server", `${serverUrl}/tampered`, "--checksum", hex], { cwd: home.home, env: home.env });
    expect(r.code).not.toBe(0);
    expect(plain(r)).toMatch(new RegExp(`invalid checksum, expected ${hex}, actual [0-9a-f]{64}`));
    expect(log.slice(mark)).toEqual([{ method: "GET", url: `/tampered/${TARBALL}`, status: 200 }]);
    expect(await pluginsIn(home)).toEqual([]);
    expect(existsSync(join(home.home, "plugins", PLUGIN_DIR))).toBe(false);
  }, 120_000);

  /** `pulumi preview` of a new YAML stack whose SDK names `location`, in an empty home; returns its output. */
  async function previewFrom(location: string): Promise<string> {
    const home = freshHome();
    const dir = scratch("tfbridge-fresh-err-");
    mkdirSync(join(dir, "sdks", "random"), { recursive: true });
    writeFileSync(
      join(dir, "sdks", "random", "random-0.0.0.yaml"),
      `packageDeclarationVersion: 1\nname: terraform-provider\nversion: ${VERSION}\ndownloadUrl: ${location}\nparameterization:\n    name: random\n    version: 0.0.0\n    value: ${Buffer.from(JSON.stringify({ local: { path: peerPath("random") } })).toString("base64")}\n`,
    );
    const yaml = YamlScenario.inline(dir, "fresh-err", "resources:\n  pet:\n    type: random:Pet\n", home.env);
    await yaml.ok(["stack", "init", "dev"]);
    const r = await yaml.pulumi(["preview"]);
    expect(r.code).not.toBe(0);
    expect(await pluginsIn(home)).toEqual([]);
    return plain(r);
  }

  it("a release server that is down: the error names the URL and the manual install command", async () => {
    const down = `http://127.0.0.1:${await closedPort()}`;
    const out = await previewFrom(down);
    expect(out).toContain(`install the plugin using \`pulumi plugin install resource terraform-provider v${VERSION} --server ${down}\``);
    expect(out).toContain(`Get "${down}/${TARBALL}": dial tcp ${down.slice("http://".length)}: connect: connection refused`);
    expect(out).toContain(`failed to download plugin: terraform-provider-${VERSION}: failed all 5 attempts`);
  }, 120_000);

  it("a release server without the version: the error names the tarball's URL and the manual install command", async () => {
    const missing = `${serverUrl}/no-such-release`;
    const mark = log.length;
    const out = await previewFrom(missing);
    expect(out).toContain(`install the plugin using \`pulumi plugin install resource terraform-provider v${VERSION} --server ${missing}\``);
    expect(out).toContain(`404 HTTP error fetching plugin from ${missing}/${TARBALL}`);
    expect(log.slice(mark).every((s) => s.url === `/no-such-release/${TARBALL}` && s.status === 404)).toBe(true);
  }, 120_000);
});
