// The package schema GetSchema answers, kept beside the provider schema it was rendered from (terraform/schema-cache.ts),
// so that a later `package add`, `package get-schema` or YAML program answers without building the whole model.
//
// Its name starts with the provider schema's key, so it goes when that entry is found wrong; the rest of the name is
// a digest of everything else the rendering reads: the parameter value (selection, names), the package name and
// version, and the plugin download location. Schemas with full docs are never kept: their docs come from a repository.
import { createHash } from "node:crypto";
import type { Parameterized } from "../parameterize/index.js";
import { cacheFileExists, readCacheFile, writeCacheFile } from "../terraform/schema-cache.js";

function renderedName(p: Parameterized, location: string | undefined): string | undefined {
  if (p.schemaCache === undefined || p.docs !== undefined || p.indexDoc !== undefined) return undefined;
  const digest = createHash("sha256").update(`${p.name}\n${p.version}\n${location ?? ""}\n`).update(p.value).digest("hex");
  return `${p.schemaCache.key}.${digest}.pulumi.json`;
}

/** The rendered schema kept for this package, or undefined. */
export function readRenderedSchema(p: Parameterized, location: string | undefined): string | undefined {
  const name = renderedName(p, location);
  return name === undefined ? undefined : readCacheFile(p.schemaCache!.options, name);
}

/** Whether a rendered schema is kept for this package (a cheap look, before the model is built). */
export function hasRenderedSchema(p: Parameterized, location: string | undefined): boolean {
  const name = renderedName(p, location);
  return name !== undefined && cacheFileExists(p.schemaCache!.options, name);
}

export function writeRenderedSchema(p: Parameterized, location: string | undefined, schema: string): void {
  const name = renderedName(p, location);
  if (name !== undefined) writeCacheFile(p.schemaCache!.options, name, schema);
}
