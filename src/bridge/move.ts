// Moving a stored state to another Terraform resource type (MoveResourceState, Terraform's `moved` block across types), which a Pulumi alias that changes a resource's type needs.
import { encodeJson, type CtyValue } from "../terraform/cty/index.js";
import { errorDiagnostics, failureMessage, shownValue } from "../terraform/diagnostics.js";
import { ProviderCallError } from "../terraform/errors.js";
import { impliedType } from "../terraform/schema.js";
import type { SecretSink, TerraformProvider } from "../terraform/types.js";
import type { ResourceModel } from "../schema-translate/model.js";
import { formerAttributesJson, toTfObject, unwrap } from "./property-cty.js";
import type { DiffKind, DiffResult } from "./diff.js";
import { META_KEY, withoutMeta, type Meta } from "./meta.js";
import type { PropertyMap } from "./property-value.js";
import { BridgeError } from "./types.js";

/** gRPC's UNIMPLEMENTED: a provider built before MoveResourceState (protocol 5.5/6.5, Terraform 1.8). */
const UNIMPLEMENTED = 12;

/** The Terraform object a stored Pulumi state holds, by the model of the type that wrote it (the id put back when it is no property). */
export function storedObject(model: ResourceModel, id: string, state: PropertyMap, secrets?: SecretSink): { [k: string]: CtyValue } {
  const obj = toTfObject(model.properties, withoutMeta(state), secrets) as { [k: string]: CtyValue };
  if (model.id.kind === "attribute" && !model.properties.some((p) => p.tfName === "id")) obj["id"] = id;
  return obj;
}

/**
 * A stored state as the raw JSON Terraform keeps in its state file, for the provider to upgrade or move: the object by the
 * type's schema, plus the attributes the stored state has that the schema no longer knows.
 */
export function storedJson(model: ResourceModel, obj: CtyValue, state: PropertyMap, secrets?: SecretSink): string {
  const raw = encodeJson(obj, impliedType(model.tfSchema.block));
  const former = formerAttributesJson(model.properties, withoutMeta(state), secrets);
  if (former.length === 0) return raw;
  return raw === "{}" ? `{${former.join(",")}}` : `${raw.slice(0, -1)},${former.join(",")}}`;
}

export interface MoveSource {
  /** The Terraform type the stored state belongs to (its `__meta` says so). */
  type: string;
  /** That type's model, when the package still has it: without it the stored Pulumi properties cannot be read. */
  model: ResourceModel | undefined;
  id: string;
  state: PropertyMap;
  meta: Meta;
}

export interface Moved {
  state: CtyValue;
  privateState: Uint8Array;
  identity?: CtyValue;
}

/**
 * Hands the source's stored state to the provider's MoveResourceState for `target`, as Terraform does for a `moved`
 * block whose types differ. The result is the target's state at its current schema version.
 */
export async function moveState(tf: TerraformProvider, source: MoveSource, target: ResourceModel, providerAddress: string, secrets?: SecretSink): Promise<Moved> {
  const fail = (why: string): BridgeError => new BridgeError(cannotMove(source, target, why));
  // Terraform asks only a provider that announces the capability (its "Unsupported `moved` across resource types").
  if (!(await tf.getProviderSchema()).serverCapabilities.moveResourceState) {
    throw fail("the provider does not support moves across resource types (it does not announce the move_resource_state capability)");
  }
  if (source.model === undefined) {
    throw fail(
      `this package has no ${source.type} to read its stored properties by (the provider no longer has that resource type, or the package was added with --include/--exclude leaving it out)`,
    );
  }
  const sourceStateJson = storedJson(source.model, storedObject(source.model, source.id, source.state, secrets), source.state, secrets);
  let moved;
  try {
    moved = await tf.moveResourceState({
      sourceProviderAddress: providerAddress,
      sourceTypeName: source.type,
      sourceSchemaVersion: source.meta.schemaVersion,
      sourceStateJson,
      sourcePrivate: source.meta.privateState,
      ...(source.meta.identity !== undefined ? { sourceIdentity: source.meta.identity } : {}),
      targetTypeName: target.tfName,
    });
  } catch (e) {
    if (e instanceof ProviderCallError && e.grpcCode === UNIMPLEMENTED) throw fail("the provider does not implement MoveResourceState (it predates Terraform 1.8's moves across resource types)");
    throw e;
  }
  if (errorDiagnostics(moved.diagnostics).length > 0) throw fail(failureMessage("the provider refused the move", moved.diagnostics));
  if (moved.targetState === null) throw fail("the provider returned no state for it");
  return { state: moved.targetState, privateState: moved.targetPrivate, ...(moved.targetIdentity !== undefined ? { identity: moved.targetIdentity } : {}) };
}

/** Why a move failed, naming both types in Terraform's and Pulumi's terms, and the three ways on. */
function cannotMove(source: MoveSource, target: ResourceModel, why: string): string {
  const from = source.model !== undefined ? `${source.type} (${source.model.token})` : source.type;
  const to = `${target.tfName} (${target.token})`;
  return (
    `cannot move ${shownValue(source.id)} from ${from} to ${to}: ${why}.\n` +
    `The resource's type changed under an alias, so Pulumi hands the ${source.type}'s stored state to the ${target.tfName}, which only the provider's ` +
    `MoveResourceState can convert (as for Terraform's \`moved\` block). Either keep the resource a ${source.type}; or remove the alias, so that Pulumi ` +
    `creates a new ${target.tfName} and deletes the ${source.type}; or take the resource out of the stack (\`pulumi state delete <urn>\`) and adopt the ` +
    `object as a ${target.tfName} with \`pulumi import ${target.token} <name> <id>\`.`
  );
}

/**
 * The diff of a moved resource whose plan changes nothing. The engine would keep the old outputs (the old type's
 * properties) on a resource it sees unchanged, so the move is reported as a change of the properties that differ
 * between the stored outputs and the moved ones, and the Update that follows writes the moved state.
 */
export function movedDiff(olds: PropertyMap, moved: PropertyMap): DiffResult {
  const detailedDiff: Record<string, DiffKind> = {};
  const same = (a: PropertyMap[string], b: PropertyMap[string]): boolean => JSON.stringify(unwrap(a)) === JSON.stringify(unwrap(b));
  for (const [k, v] of Object.entries(olds)) {
    if (k === META_KEY) continue;
    if (!(k in moved)) detailedDiff[k] = "delete";
    else if (!same(v, moved[k]!)) detailedDiff[k] = "update";
  }
  for (const k of Object.keys(moved)) if (k !== META_KEY && !(k in olds)) detailedDiff[k] = "add";
  return { changes: "some", replaces: [], deleteBeforeReplace: false, detailedDiff, changedKeys: Object.keys(detailedDiff).sort() };
}
