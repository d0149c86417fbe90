// How golden schemas are produced: each real peer's schema through the model and renderer, with fixed metadata.
import { GrpcTerraformProvider } from "../../src/terraform/client.js";
import { buildProviderModel, renderPackageSchema } from "../../src/schema-translate/index.js";
import { peerPath, pins } from "./peers.js";

export const goldenPeers = Object.keys(pins);

/** Registry-style metadata for the hashicorp peers, local for bridgetest, so both shapes are covered. */
export async function goldenSchema(name: string): Promise<Record<string, unknown>> {
  const p = await GrpcTerraformProvider.launch({ path: peerPath(name) });
  try {
    const schema = await p.getProviderSchema();
    const local = pins[name]!.source !== undefined;
    const version = local ? "0.0.0" : "1.0.0";
    const model = buildProviderModel(schema, { packageName: name, packageVersion: version });
    const value = local
      ? { local: { path: `/peers/terraform-provider-${name}` } }
      : { remote: { url: `registry.opentofu.org/hashicorp/${name}`, version } };
    return renderPackageSchema(model, {
      bridgeVersion: "0.1.0",
      parameter: Buffer.from(JSON.stringify(value)),
      source: local
        ? { kind: "local", path: `/peers/terraform-provider-${name}`, type: name }
        : { kind: "registry", host: "registry.opentofu.org", namespace: "hashicorp", type: name },
    });
  } finally {
    await p.close();
  }
}
