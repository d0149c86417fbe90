// The scale benchmark's aws-shaped program: N resources spread over aws resource types served by the replay peer
// (the aws schema dump), each with its required attributes, as a CustomLoad for runLoadScenario.
import { hash, readDump } from "../crosstest/giants.js";
import { moduleToken, pascalName, propertyName, resourceClassName, stripPrefix } from "../../src/schema-translate/names.js";
import { giants, serveGiant } from "./giants.js";
import type { CustomLoad } from "./load-scenario.js";

interface Attr {
  type?: unknown;
  nested_type?: unknown;
  required?: boolean;
  write_only?: boolean;
}

const PRIMITIVE = new Set(["string", "number", "bool"]);

/**
 * `typeCount` aws resource types a YAML program can configure with plain values: a string `id` (the replay peer keeps
 * one object per id; without one it keeps a single object per type), no required block, and required attributes that
 * are all primitives.
 */
export function awsTypes(typeCount: number): { tfType: string; token: string; required: [string, string][] }[] {
  const aws = giants.find((g) => g.name === "aws")!;
  const { resources } = readDump(aws);
  const out = [];
  for (const [tfType, { block }] of Object.entries(resources)) {
    const attrs = (block.attributes ?? {}) as Record<string, Attr>;
    if (attrs["id"]?.type !== "string") continue;
    if (Object.values(block.block_types ?? {}).some((b) => (b.min_items ?? 0) > 0)) continue;
    const req = Object.entries(attrs).filter(([, a]) => a.required === true);
    if (req.some(([k, a]) => k === "id" || k === "urn" || a.write_only === true || a.nested_type !== undefined || !PRIMITIVE.has(a.type as string))) continue;
    const token = moduleToken("aws", resourceClassName(pascalName(stripPrefix(tfType, "aws"))));
    out.push({ tfType, token, required: req.map(([k, a]): [string, string] => [propertyName(k), a.type as string]).sort() });
  }
  // Ordered by the type name's hash, so the chosen types are spread over the dump and the same at every run.
  return out.sort((x, y) => hash(x.tfType) - hash(y.tfType)).slice(0, typeCount);
}

const yamlValue = (type: string, i: number): string => (type === "string" ? `"v${i}"` : type === "number" ? String(i) : "true");

/** `n` resources round-robin over awsTypes(typeCount), served from a fresh replay store; cleanup removes it. */
export function awsLoad(n: number, typeCount = 20): CustomLoad & { cleanup: () => void } {
  const served = serveGiant(giants.find((g) => g.name === "aws")!);
  const types = awsTypes(typeCount);
  const lines = ["resources:"];
  for (let i = 0; i < n; i++) {
    const t = types[i % types.length]!;
    lines.push(`  r${i}:`, `    type: ${t.token}`);
    if (t.required.length > 0) lines.push("    properties:", ...t.required.map(([k, ty]) => `      ${k}: ${yamlValue(ty, i)}`));
  }
  return {
    packages: [served.binary],
    program: `${lines.join("\n")}\n`,
    resources: n,
    types: new Set(types.map((t) => t.token)),
    env: { REPLAY_SCHEMA: served.env["REPLAY_SCHEMA"]!, REPLAY_STORE: served.env["REPLAY_STORE"]! },
    cleanup: served.cleanup,
  };
}
