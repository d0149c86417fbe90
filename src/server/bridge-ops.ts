// ResourceOps over src/bridge's TerraformBridge: the wiring between the server's decoded requests and the bridge's calls.
import { TerraformBridge } from "../bridge/bridge.js";
import { BridgeError, PartialFailure, type DiffResult as BridgeDiff } from "../bridge/types.js";
import { terraformConfigToken } from "../schema-translate/names.js";
import { decodeConfig } from "../bridge/config-encoding.js";
import type { PropertyDiffKind, DiffResponse, ResourceOps, ResourceOpsFactory } from "./ops.js";
import { ResourceInitError } from "./ops.js";

/** The engine sends `type`/`name` since 3.x; older engines only the URN (`urn:pulumi:stack::project::[parent$]type::name`). */
function typeAndName(urn: string, type: string, name: string): { type: string; name: string } {
  if (type !== "" && name !== "") return { type, name };
  const parts = urn.split("::");
  const qualified = parts[2] ?? "";
  return { type: type || qualified.slice(qualified.lastIndexOf("$") + 1), name: name || parts.slice(3).join("::") };
}

function diffResult(d: BridgeDiff): DiffResponse {
  const detailed: Record<string, { kind: PropertyDiffKind; inputDiff: boolean }> = {};
  // The bridge diffs prior state against the plan, not old inputs against new ones.
  for (const [path, kind] of Object.entries(d.detailedDiff)) detailed[path] = { kind, inputDiff: false };
  return { changes: d.changes, replaces: d.replaces, stables: [], deleteBeforeReplace: d.deleteBeforeReplace, diffs: d.changedKeys, detailedDiff: detailed };
}

/** A half-done apply becomes the engine's partial-failure status, so the resource is recorded, not lost. */
async function partial<T>(op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (e) {
    if (e instanceof PartialFailure) throw new ResourceInitError(e.message, e.id, e.properties, e.reasons, e.inputs);
    throw e;
  }
}

export const bridgeOps: ResourceOpsFactory = ({ provider, schema, model, log, hints }): ResourceOps => {
  // A message about a resource goes to the engine with its URN, which shows it with that resource.
  const bridge = new TerraformBridge(provider, schema, model, (severity, message, urn) => log.log(severity, message, urn ? { urn } : undefined), hints);
  return {
    // Settings arrive as Pulumi encodes them (src/bridge/config-encoding.ts); the bridge sees them decoded, and check
    // returns them decoded, so the stored provider inputs hold the values the program and the stack gave.
    checkConfig: (r) => {
      const { values, failures } = decodeConfig(model.config, r.news);
      return bridge.checkConfig(values, r.urn, failures);
    },
    diffConfig: async (r) => diffResult(bridge.diffConfig(decodeConfig(model.config, r.olds).values, decodeConfig(model.config, r.news).values)),
    configure: async (r) => {
      await bridge.configure(decodeConfig(model.config, r.args).values, r.urn);
      // Resource references and output values are not converted by the bridge: the engine sends plain ids and values.
      return { acceptSecrets: true, supportsPreview: true, acceptResources: false, acceptOutputs: false, supportsAutonamingConfiguration: true };
    },
    check: (r) => {
      const { type, name } = typeAndName(r.urn, r.type, r.name);
      return bridge.check({ token: type, name, olds: r.olds, news: r.news, autonaming: r.autonaming, randomSeed: r.randomSeed, urn: r.urn });
    },
    diff: async (r) => diffResult(await bridge.diff({ token: typeAndName(r.urn, r.type, r.name).type, id: r.id, olds: r.olds, news: r.news, urn: r.urn })),
    create: (r) => {
      const { type, name } = typeAndName(r.urn, r.type, r.name);
      return partial(() => bridge.create({ token: type, news: r.properties, preview: r.preview, timeoutSeconds: r.timeout, name, urn: r.urn }));
    },
    update: (r) =>
      partial(() => bridge.update({ token: typeAndName(r.urn, r.type, r.name).type, id: r.id, olds: r.olds, news: r.news, preview: r.preview, timeoutSeconds: r.timeout, urn: r.urn })),
    read: async (r) =>
      (await partial(() => bridge.read({ token: typeAndName(r.urn, r.type, r.name).type, id: r.id, state: r.properties, inputs: r.inputs, urn: r.urn }))) ?? { id: "", properties: {}, inputs: {} },
    delete: (r) => bridge.delete({ token: typeAndName(r.urn, r.type, r.name).type, id: r.id, olds: r.properties, timeoutSeconds: r.timeout, urn: r.urn }),
    invoke: async (r) => {
      const { result, failures } = await bridge.invoke(r.token, r.args, r.preview);
      return failures.length > 0 ? { failures } : { return: result, failures: [] };
    },
    list: (r, cancelled) => bridge.list(r.token, r, cancelled),
    // The Provider resource's one method; the engine sends it here with the provider instance as `__self__`.
    call: async (r) => {
      if (r.token !== terraformConfigToken(model.name)) throw new BridgeError(`unknown method ${r.token}; the provider has only ${terraformConfigToken(model.name)}`);
      return { return: bridge.terraformConfig(), returnDependencies: {}, failures: [] };
    },
    cancel: () => bridge.cancel(),
  };
};
