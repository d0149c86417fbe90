// Names for resources the program leaves unnamed, as Pulumi's autonaming and the reference give them.
import { createHash } from "node:crypto";
import { randomUuid } from "./uuid.js";
import type { ResourceModel } from "../schema-translate/model.js";
import type { PropertyMap } from "./property-value.js";
import type { Autonaming } from "./types.js";

/**
 * A resource's string `name` input (required or optional, as the reference autonames both) gets a value when the
 * program gives none: the engine's proposal when it sends one, else `<urn name>-<7 hex>` derived from the engine's
 * random seed (stable across previews), kept from the previous inputs when the resource already exists. A program
 * that sets `namePrefix` instead has chosen the provider's own naming, which conflicts with a name.
 */
export function autoname(model: ResourceModel, urnName: string, olds: PropertyMap, inputs: PropertyMap, autonaming?: Autonaming, seed?: Uint8Array): void {
  const prop = model.properties.find((p) => p.autonamed === true);
  if (prop === undefined || autonaming?.mode === "disable") return;
  if (inputs[prop.name] !== undefined && inputs[prop.name] !== null) return;
  const prefix = model.properties.find((p) => p.tfName === "name_prefix" && p.input);
  if (prefix !== undefined && inputs[prefix.name] !== undefined && inputs[prefix.name] !== null) return;
  if (typeof olds[prop.name] === "string") {
    inputs[prop.name] = olds[prop.name]!;
    return;
  }
  if (autonaming?.proposedName !== undefined && autonaming.proposedName !== "") {
    inputs[prop.name] = autonaming.proposedName;
    return;
  }
  const suffix = createHash("sha256").update(seed && seed.length > 0 ? seed : randomUuid()).digest("hex").slice(0, 7);
  inputs[prop.name] = `${urnName}-${suffix}`;
}

