// docs/configuration.md's worked mirror, followed as written: Terraform v1.16.4 itself runs the page's
// `terraform providers mirror` on the page's versions.tf, and the acquire path then reads the tree it wrote through
// the page's CLI configuration, its placeholder path and URL replaced by that tree and a loopback network mirror: the
// full registry.terraform.io address comes from the filesystem mirror, a bare one from the network mirror, a bare
// name the network mirror lacks fails with the very error the page quotes, and the tree served as static files is a
// network mirror. The one change: `providers mirror` always downloads from a provider's origin registry and no
// registry is reachable here, so versions.tf names the loopback registry (test/support/registry-server.ts) as the
// source and the host folder Terraform wrote for it is renamed registry.terraform.io, as it is named for the page's
// source (nothing inside the tree names the host).
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandOf, markedBlocks } from "../support/doc-projects.js";
import { scratch, removeScratch } from "../support/lifecycle.js";
import { peerPath, repoRoot, terraformBin } from "../support/peers.js";
import { spawnAsync } from "../support/processes.js";
import { acquireInChild, sandbox, type AcquireResult } from "../support/registry-child.js";
import { CURRENT_PLATFORM, FakeRegistry } from "../support/registry-server.js";

const PAGE = "docs/configuration.md";
const blocks = markedBlocks(PAGE, readFileSync(join(repoRoot, PAGE), "utf8"), "mirror");
const block = (name: string): string => {
  const b = blocks.get(name);
  if (b === undefined) throw new Error(`${PAGE} has no <!-- mirror ${name} --> block`);
  return b;
};
/** The page's placeholders: its filesystem mirror's folder and its network mirror's URL. */
const DOC_PATH = "/srv/terraform/providers";
const DOC_URL = "https://terraform-mirror.example.com/providers/";

const sha = (p: string): string => createHash("sha256").update(readFileSync(p)).digest("hex");

/**
 * Where Terraform downloads hashicorp/random from, as registry.terraform.io would serve it; under /mirror/ also the
 * page's network mirror (which has hashicorp/local, not hashicorp/random), and under /static/ the tree as files.
 */
let reg: FakeRegistry;
/** The page's network mirror. */
let company: string;
let work: string;
/** The tree `terraform providers mirror` wrote. */
let tree: string;

function expectOk(r: AcquireResult): asserts r is AcquireResult & { ok: true; path: string; version: string } {
  expect(r, JSON.stringify(r, null, 2)).toMatchObject({ ok: true });
}

/** The page's CLI configuration with `url` for its network mirror, written into a fresh sandbox. */
function docsSandbox(url: string): ReturnType<typeof sandbox> {
  const sb = sandbox(reg.caFile);
  const rc = join(sb.home, "terraformrc");
  writeFileSync(rc, block("terraformrc").replaceAll(DOC_PATH, tree).replaceAll(DOC_URL, url));
  return { ...sb, env: { ...sb.env, TF_CLI_CONFIG_FILE: rc } };
}

const notFound = (res: ServerResponse): true => {
  res.writeHead(404, { "content-type": "application/json" });
  res.end('{"errors":["Not Found"]}');
  return true;
};

beforeAll(async () => {
  reg = await FakeRegistry.start({
    providers: { "hashicorp/random": [{ version: "3.7.2" }], "hashicorp/local": [{ version: "2.5.3" }] },
    binaries: { random: peerPath("random"), local: peerPath("local") },
  });
  company = `https://${reg.host}/mirror/`;
  work = scratch("tfbridge-mirror-docs-");
  tree = join(work, "providers");

  // The page's Terraform folder and command.
  const tf = join(work, "terraform");
  mkdirSync(tf);
  const versions = block("versions.tf");
  expect(versions).toContain('source = "hashicorp/random"');
  writeFileSync(join(tf, "versions.tf"), versions.replace('source = "hashicorp/random"', `source = "${reg.host}/hashicorp/random"`));
  const rc = join(work, "terraform.tfrc");
  writeFileSync(rc, "");
  const env = { PATH: process.env["PATH"], HOME: work, TF_CLI_CONFIG_FILE: rc, SSL_CERT_FILE: reg.caFile, CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "1" };
  for (const line of block("run").split("\n").map(commandOf).filter((l) => l !== "")) {
    expect(line).toMatch(/^terraform /);
    const args = line.slice("terraform ".length).replaceAll(DOC_PATH, tree).replaceAll("linux_amd64", CURRENT_PLATFORM).split(/\s+/);
    const r = await spawnAsync(terraformBin(), args, { cwd: tf, env });
    expect(r.status, `terraform ${args.join(" ")}\n${r.stdout}\n${r.stderr}`).toBe(0);
  }
  expect(readdirSync(tree)).toEqual([reg.host]);
  renameSync(join(tree, reg.host), join(tree, "registry.terraform.io"));

  reg.respond = (path, _req, res) => {
    if (/^\/mirror\/[^/]+\/hashicorp\/random\//.test(path)) return notFound(res);
    if (!path.startsWith("/static/")) return false;
    const file = join(tree, decodeURIComponent(path.slice("/static/".length)));
    if (!file.startsWith(tree + "/") || !existsSync(file) || !statSync(file).isFile()) return notFound(res);
    res.writeHead(200, { "content-type": file.endsWith(".json") ? "application/json" : "application/zip" });
    res.end(readFileSync(file));
    return true;
  };
}, 240_000);

afterAll(async () => {
  await reg?.stop();
  removeScratch();
});

describe("docs/configuration.md: mirrors", () => {
  it("`terraform providers mirror` writes the packed layout and the network mirror documents the page shows", () => {
    const dir = join(tree, "registry.terraform.io/hashicorp/random");
    expect(readdirSync(tree)).toEqual(["registry.terraform.io"]);
    expect(readdirSync(dir).sort()).toEqual(["3.7.2.json", "index.json", `terraform-provider-random_3.7.2_${CURRENT_PLATFORM}.zip`]);
    expect(JSON.parse(readFileSync(join(dir, "index.json"), "utf8"))).toEqual({ versions: { "3.7.2": {} } });
    const version = JSON.parse(readFileSync(join(dir, "3.7.2.json"), "utf8")) as { archives: Record<string, { url: string; hashes: string[] }> };
    expect(version.archives[CURRENT_PLATFORM]?.url).toBe(`terraform-provider-random_3.7.2_${CURRENT_PLATFORM}.zip`);
    expect(version.archives[CURRENT_PLATFORM]?.hashes.some((h) => h.startsWith("h1:"))).toBe(true);
  });

  it("the page's configuration: registry.terraform.io/hashicorp/random from the tree, hashicorp/local from the network mirror", async () => {
    const sb = docsSandbox(company);
    const random = await acquireInChild("registry.terraform.io/hashicorp/random", "3.7.2", sb.env);
    expectOk(random);
    expect(random.statuses).toContain(`Unpacking ${join(tree, "registry.terraform.io/hashicorp/random", `terraform-provider-random_3.7.2_${CURRENT_PLATFORM}.zip`)}…`);
    expect(sha(random.path)).toBe(sha(peerPath("random")));
    expect(reg.count(/^\/mirror\/.*random/)).toBe(0);

    const local = await acquireInChild("hashicorp/local", "2.5.3", sb.env);
    expectOk(local);
    expect(sha(local.path)).toBe(sha(peerPath("local")));
    expect(reg.count(/^\/mirror\/registry\.opentofu\.org\/hashicorp\/local\/index\.json$/)).toBe(1);
  });

  it("a bare hashicorp/random the network mirror lacks fails with the error the page quotes", async () => {
    const r = await acquireInChild("hashicorp/random", "3.7.2", docsSandbox(company).env);
    expect(r.ok, JSON.stringify(r, null, 2)).toBe(false);
    expect(r.kind).toBe("not-found");
    expect(r.message).toBe(block("not-found").trim().replaceAll(DOC_URL, company).replaceAll(DOC_PATH, tree));
    expect(reg.count(/^\/mirror\/registry\.opentofu\.org\/hashicorp\/random\/index\.json$/)).toBe(1);
  });

  it("the tree served as static files is a network mirror, keyed on the full address as well", async () => {
    const url = `https://${reg.host}/static/`;
    const sb = sandbox(reg.caFile);
    const rc = join(sb.home, "terraformrc");
    writeFileSync(rc, `provider_installation {\n  network_mirror {\n    url = "${url}"\n  }\n}\n`);
    const env = { ...sb.env, TF_CLI_CONFIG_FILE: rc };
    const r = await acquireInChild("registry.terraform.io/hashicorp/random", "3.7.2", env);
    expectOk(r);
    expect(sha(r.path)).toBe(sha(peerPath("random")));
    expect(r.warnings).toEqual([]);
    const bare = await acquireInChild("hashicorp/random", "3.7.2", env);
    expect(bare.kind).toBe("not-found");
    expect(bare.message).toBe(`provider registry.opentofu.org/hashicorp/random not found: network mirror ${url} has no provider hashicorp/random`);
  });
});
