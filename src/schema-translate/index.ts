// Public face of schema translation: build the provider model from a TF schema, render it as a Pulumi package schema.
export type * from "./model.js";
export { objectTypeOf } from "./model.js";
export { buildProviderModel } from "./build.js";
export { renderPackageSchema } from "./render.js";
export { MAPPING_KEYS, mappedProviderName, providerMapping, type ProviderMapping } from "./mapping.js";
