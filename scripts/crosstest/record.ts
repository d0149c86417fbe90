// Records Terraform's answer for every corpus case with OpenTofu driving the very shapesdk/shapefw binaries the tests use:
// apply config1, plan config2, apply it, a refresh-only plan, a plain plan, and an import into an empty state.
// Usage: npm run crosstest:record [-- sdkv2|framework [case-id-substring]] or [-- giants [aws|azurerm|…]]   (minutes; not run in CI; writes
// test/crosstest/golden/); `-- --paths [flavour]` only recomputes the goldens' changed paths from their recorded plans.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { FLAVOURS, GOLDEN_DIR, PEER, goldenPath, loadCases, loadPeerCorpus, loadShapes, type Flavour, type Golden } from "../../test/crosstest/corpus.js";
import { blockNode, changedPaths, replaceSteps, shapeNode } from "../../test/crosstest/paths.js";
import { record, type Target } from "../../test/crosstest/record-tofu.js";
import { GIANTS_DIR, GIANT_CASES_PER_TYPE, giantCases, readDump, saveBundle } from "../../test/crosstest/giants.js";
import { giants, serveGiant } from "../../test/support/giants.js";
import { startHttpApi } from "../../test/support/httpapi.js";
import { peerPath, pins, repoRoot } from "../../test/support/peers.js";
import { GrpcTerraformProvider } from "../../src/terraform/client.js";
import type { ProviderSchema } from "../../src/terraform/types.js";

if (process.env["CROSSTEST_SKIP_BUILD"] === undefined && process.argv[2] !== "--paths") execFileSync("bash", [join(repoRoot, "scripts/build-peers.sh")], { stdio: ["ignore", "ignore", "inherit"] });
// The engine that answers: OpenTofu (the recorded goldens) or, with CROSSTEST_ENGINE=terraform, Terraform v1.16.4, whose
// answers go to CROSSTEST_GOLDEN_DIR for scripts/crosstest/compare-engines.ts to set beside OpenTofu's.
const engine = process.env["CROSSTEST_ENGINE"] ?? "tofu";
if (engine !== "tofu" && engine !== "terraform") throw new Error(`CROSSTEST_ENGINE must be tofu or terraform, not ${engine}`);
const goldenDir = process.env["CROSSTEST_GOLDEN_DIR"] ?? GOLDEN_DIR;
if (engine !== "tofu" && goldenDir === GOLDEN_DIR) throw new Error("with CROSSTEST_ENGINE=terraform, set CROSSTEST_GOLDEN_DIR: the committed goldens are OpenTofu's");
const options = { engine: realpathSync(join(repoRoot, ".peers", engine)), goldenDir };

function flavourTarget(flavour: Flavour, only: string | undefined, work: string): Target {
  const peer = PEER[flavour];
  const shapes = loadShapes(flavour);
  const schemaFile = join(work, "shapes.json");
  writeFileSync(schemaFile, JSON.stringify({ resources: shapes }));
  return {
    name: flavour,
    cases: loadCases(flavour).filter((c) => only === undefined || c.id.includes(only)),
    providers: { [peer]: `bridge/${peer}` },
    providerConfig: {},
    typeOf: (c) => `${peer}_${c.shape}`,
    node: (c) => shapeNode(shapes[c.shape]!, flavour),
    source: peer,
    env: { SHAPES_SCHEMA: schemaFile, SHAPES_STORE: join(work, "store") },
    placeholders: [],
  };
}

/** The real peers, each in its own working directory; httpapi's loopback service runs for the recording. */
async function recordPeers(only: string | undefined): Promise<void> {
  const corpus = loadPeerCorpus();
  rmSync(join(goldenDir, "peers"), { recursive: true, force: true });
  const api = await startHttpApi();
  try {
    for (const peer of [...new Set(corpus.cases.map((c) => c.peer))]) {
      const cases = corpus.cases.filter((c) => c.peer === peer && (only === undefined || c.id.includes(only)));
      if (cases.length === 0) continue;
      const work = mkdtempSync(join(tmpdir(), `crosstest-${peer}-`));
      mkdirSync(join(work, "files"));
      const schema = await providerSchema(peer);
      const source = pins[peer]!.source !== undefined ? `bridge/${peer}` : `hashicorp/${peer}`;
      await record(
        {
          name: "peers",
          cases,
          providers: { [peer]: source },
          providerConfig: corpus.providers[peer] !== undefined ? { [peer]: corpus.providers[peer] } : {},
          typeOf: (c) => c.shape,
          node: (c) => blockNode(schema.resources.get(c.shape)!.block),
          env: {},
          placeholders: [["{dir}", join(work, "files")], ["{httpapi_token}", api.token], ["{httpapi}", api.url]],
        },
        work,
        options,
      );
      if (process.env["CROSSTEST_KEEP"] === undefined) rmSync(work, { recursive: true, force: true });
    }
  } finally {
    await api.stop();
  }
}

async function providerSchema(peer: string, path = peerPath(peer), env?: Record<string, string>): Promise<ProviderSchema> {
  const p = await GrpcTerraformProvider.launch({ path, ...(env === undefined ? {} : { env }) });
  try {
    return await p.getProviderSchema();
  } finally {
    await p.close();
  }
}

/** Recomputes the changed paths of existing goldens from their recorded plans (after a change to paths.ts). */
function rederive(flavour: Flavour): void {
  const shapes = loadShapes(flavour);
  for (const c of loadCases(flavour)) {
    const file = goldenPath(flavour, c.id);
    const g = JSON.parse(readFileSync(file, "utf8")) as Golden;
    if (g.plan.actions.length === 0) continue;
    const node = shapeNode(shapes[c.shape]!, flavour);
    const replace = g.plan.replacePaths.map((p) => replaceSteps(node, JSON.parse(p) as (string | number)[]));
    g.plan.changed = changedPaths(node, g.plan.before, g.plan.after, g.plan.afterUnknown, replace);
    writeFileSync(file, JSON.stringify(g, null, 1) + "\n");
  }
}

/**
 * The giants (test/crosstest/giants.ts): each giant's cases generated from its dump, recorded through the replay peer
 * into one bundle, `test/crosstest/giants/<giant>.json.gz`.
 */
async function recordGiants(only: string | undefined): Promise<void> {
  mkdirSync(GIANTS_DIR, { recursive: true });
  for (const g of giants) {
    if (only !== undefined && only !== g.name) continue;
    const started = Date.now();
    const served = serveGiant(g);
    const work = mkdtempSync(join(tmpdir(), `crosstest-giant-${g.name}-`));
    try {
      const env = { REPLAY_SCHEMA: served.env["REPLAY_SCHEMA"]!, REPLAY_STORE: served.env["REPLAY_STORE"]! };
      const schema = await providerSchema(g.name, served.binary, env);
      const cases = giantCases(g, GIANT_CASES_PER_TYPE);
      const goldens: Record<string, Golden> = {};
      await record(
        {
          name: g.name,
          cases,
          providers: { [g.name]: readDump(g).address.replace(/^registry\.terraform\.io\//, "") },
          providerConfig: {},
          typeOf: (c) => c.shape,
          node: (c) => blockNode(schema.resources.get(c.shape)!.block),
          env,
          placeholders: [],
          binaries: { [g.name]: dirname(served.binary) },
          sink: (golden) => void (goldens[golden.id] = golden),
          importAtOnce: true,
        },
        work,
        options,
      );
      saveBundle(g, { giant: g.name, dump: g.file, perType: GIANT_CASES_PER_TYPE, cases, goldens });
      console.log(`${g.name}: ${cases.length} cases recorded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    } finally {
      served.cleanup();
      if (process.env["CROSSTEST_KEEP"] === undefined) rmSync(work, { recursive: true, force: true });
    }
  }
}

const args = process.argv.slice(2);
if (args[0] === "giants") {
  await recordGiants(args[1]);
  process.exit(0);
}
const pathsOnly = args[0] === "--paths";
const [which, only] = pathsOnly ? args.slice(1) : args;
for (const f of FLAVOURS) {
  if (which !== undefined && which !== f) continue;
  if (pathsOnly) {
    rederive(f);
    continue;
  }
  const work = mkdtempSync(join(tmpdir(), `crosstest-${f}-`));
  if (only === undefined) rmSync(join(goldenDir, f), { recursive: true, force: true });
  await record(flavourTarget(f, only, work), work, options);
  if (process.env["CROSSTEST_KEEP"] === undefined) rmSync(work, { recursive: true, force: true });
}
if (!pathsOnly && (which === undefined || which === "peers")) await recordPeers(only);
