// Regenerates the golden Pulumi schemas (test/golden/*.schema.json) from the real peers; review the diff before committing.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { goldenSchema, goldenPeers } from "../test/support/golden.js";
import { repoRoot } from "../test/support/peers.js";

for (const name of goldenPeers) {
  const json = await goldenSchema(name);
  writeFileSync(join(repoRoot, "test/golden", `${name}.schema.json`), `${JSON.stringify(json, null, 2)}\n`);
  console.log(`wrote test/golden/${name}.schema.json`);
}
