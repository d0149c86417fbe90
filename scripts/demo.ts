// The main job until the Pulumi plugin lands: drive real Terraform providers (random, local) through a full lifecycle.
import { mkdtempSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CtyValue } from "../src/terraform/cty/index.js";
import { GrpcTerraformProvider, errorDiagnostics, formatDiagnostics } from "../src/terraform/client.js";
import type { Diagnostic } from "../src/terraform/types.js";
import { completeObject } from "../src/terraform/values.js";
import { peerPath } from "../test/support/peers.js";

type Obj = { [k: string]: CtyValue };

function check(step: string, diags: Diagnostic[]): void {
  if (errorDiagnostics(diags).length > 0) throw new Error(`${step} failed:\n${formatDiagnostics(diags)}`);
}

async function lifecycle(provider: string, typeName: string, input: Obj, show: (s: Obj) => string): Promise<void> {
  const p = await GrpcTerraformProvider.launch({ path: peerPath(provider) });
  try {
    const schema = await p.getProviderSchema();
    console.log(`${provider}: protocol ${p.protocolVersion}, ${schema.resources.size} resources, ${schema.dataSources.size} data sources, ${schema.functions.size} functions`);
    check("configure", await p.configureProvider(completeObject(schema.provider.block, {})));
    const config = completeObject(schema.resources.get(typeName)!.block, input);
    check("validate", await p.validateResourceConfig(typeName, config));
    const plan = await p.planResourceChange({ typeName, priorState: null, proposedNewState: config, config });
    check("plan", plan.diagnostics);
    const created = await p.applyResourceChange({ typeName, priorState: null, plannedState: plan.plannedState, config, plannedPrivate: plan.plannedPrivate });
    check("apply", created.diagnostics);
    const state = created.newState as Obj;
    console.log(`  created ${typeName}: ${show(state)}`);
    const read = await p.readResource({ typeName, currentState: state, private: created.private });
    check("read", read.diagnostics);
    console.log(`  read back: ${JSON.stringify(read.newState) === JSON.stringify(state) ? "unchanged" : "changed"}`);
    const del = await p.planResourceChange({ typeName, priorState: state, proposedNewState: null, config: null, priorPrivate: read.private });
    check("plan delete", del.diagnostics);
    const gone = await p.applyResourceChange({ typeName, priorState: state, plannedState: null, config: null, plannedPrivate: del.plannedPrivate });
    check("delete", gone.diagnostics);
    console.log(`  deleted`);
  } finally {
    await p.close();
  }
}

await lifecycle("random", "random_pet", { length: 3 }, (s) => `id=${String(s["id"])}`);
const file = join(mkdtempSync(join(tmpdir(), "tfbridge-demo-")), "hello.txt");
await lifecycle("local", "local_file", { filename: file, content: "written by terraform-provider-local through the TypeScript bridge\n" }, (s) =>
  `${file} contains ${JSON.stringify(readFileSync(file, "utf8"))} (id ${String(s["id"]).slice(0, 12)}…)`,
);
console.log(`  ${file} exists after delete: ${existsSync(file)}`);
