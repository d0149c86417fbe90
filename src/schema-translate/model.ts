// The provider model: every Pulumi name, token and type for a Terraform provider, computed once from its schema.
import type { CtyType } from "../terraform/cty/index.js";
import type { ProviderDocs } from "../docs/repo.js";
import type { Schema } from "../terraform/types.js";

/** One property of a resource, data source, nested object or the provider configuration. */
export interface PropertyModel {
  /** Terraform attribute or block name. */
  tfName: string;
  /** Pulumi property name (camelCase, pluralized, reserved names resolved). */
  name: string;
  /** The Terraform value type (for blocks and nested attributes, their implied type). */
  tfType: CtyType;
  /** The Pulumi type of the property. */
  type: TypeModel;
  /** Must be set in inputs (TF required). */
  required: boolean;
  /** Accepted as an input (TF required or optional). */
  input: boolean;
  /** The provider may set it (TF computed). */
  computed: boolean;
  /** Sensitive or write-only: a Pulumi secret. */
  secret: boolean;
  writeOnly: boolean;
  /** A list/set block (or attribute) with at most one element, surfaced as a single object. */
  maxItemsOne: boolean;
  /**
   * A resource's string `name` input, which the bridge fills in when the program leaves it out (Pulumi autonaming),
   * so it is never a required input even where Terraform requires it.
   */
  autonamed?: boolean;
  /**
   * A resource's top-level `id`, `urn` or `pulumi` under a name of its own (`itemId`, `<pkg>Urn`, `pulumiInfo`),
   * because Pulumi owns the plain one, as the reference lists among a resource's fields; or a property whose name
   * collided with another's and was told apart (`fooBarV2`), which the reference has no name for.
   */
  renamed?: boolean;
  /** Set for nested blocks, which Terraform never holds as null: absent list/set/map blocks are empty. */
  block?: "single" | "list" | "set" | "map" | "group";
  description: string;
  deprecationMessage?: string;
}

/**
 * The one PropertyModel constructor: names and types given, every flag off unless set (an input, not required, not
 * computed, not secret, no description). Properties of the schema and the bridge's own (the `id` output, function
 * parameters and results) are all made here, so a new field gets its default in one place.
 */
export function propertyModel(p: Pick<PropertyModel, "tfName" | "name" | "tfType" | "type"> & Partial<PropertyModel>): PropertyModel {
  // One shape for every property (a spread of callers' differently shaped objects makes as many shapes, slower to
  // build and to read across a giant's hundred thousand properties); optional fields stay absent when not given.
  const m: PropertyModel = {
    tfName: p.tfName,
    name: p.name,
    tfType: p.tfType,
    type: p.type,
    required: p.required ?? false,
    input: p.input ?? true,
    computed: p.computed ?? false,
    secret: p.secret ?? false,
    writeOnly: p.writeOnly ?? false,
    maxItemsOne: p.maxItemsOne ?? false,
    description: p.description ?? "",
  };
  if (p.autonamed !== undefined) m.autonamed = p.autonamed;
  if (p.renamed !== undefined) m.renamed = p.renamed;
  if (p.block !== undefined) m.block = p.block;
  if (p.deprecationMessage !== undefined) m.deprecationMessage = p.deprecationMessage;
  return m;
}

export type TypeModel =
  | { kind: "string" | "number" | "boolean" | "any" }
  /** `set` marks Terraform sets: Pulumi arrays whose order carries no meaning. */
  | { kind: "array"; items: TypeModel; set?: boolean }
  | { kind: "map"; values: TypeModel }
  | { kind: "object"; ref: ObjectTypeModel };

/** The object type a property holds, directly or as the elements of an array or map. */
export function objectTypeOf(t: TypeModel): ObjectTypeModel | undefined {
  switch (t.kind) {
    case "object":
      return t.ref;
    case "array":
      return objectTypeOf(t.items);
    case "map":
      return objectTypeOf(t.values);
    default:
      return undefined;
  }
}

/** A named object type (`<pkg>:index/<Name>:<Name>`), from a block, nested attribute or object attribute. */
export interface ObjectTypeModel {
  token: string;
  properties: PropertyModel[];
  description: string;
}

export interface ResourceModel {
  tfName: string;
  token: string;
  /** Earlier tokens of the same resource (schema `aliases`): state and programs using them carry on. */
  aliases: string[];
  tfSchema: Schema;
  properties: PropertyModel[];
  /** Where the Pulumi resource id comes from; see docs/architecture.md "Schema translation". */
  id: { kind: "attribute"; tfName: string } | { kind: "synthesized" };
  description: string;
  deprecationMessage?: string;
  /** The Terraform list resource of the same name (Terraform 1.14): its configuration, the schema's `listInputs`. */
  list?: { tfSchema: Schema; properties: PropertyModel[] };
}

/** A schema block served as a function: a data source, or an ephemeral resource. */
export interface DataSourceModel {
  tfName: string;
  token: string;
  tfSchema: Schema;
  properties: PropertyModel[];
  description: string;
  deprecationMessage?: string;
}

/**
 * A Terraform ephemeral resource, shaped as a data source's function: Invoke opens it, renews it if asked, and closes
 * it, and every value of the result is secret. Inputs are its configurable attributes, outputs all of them.
 */
export type EphemeralResourceModel = DataSourceModel;

/**
 * A Terraform 1.14 action, shaped as a function of its configuration with no result: Invoke validates and plans it in
 * a preview, and runs it otherwise. Its properties are all inputs (an action's schema has nothing computed).
 */
export type ActionModel = DataSourceModel;

export interface FunctionParameterModel {
  tfName: string;
  name: string;
  tfType: CtyType;
  type: TypeModel;
  required: boolean;
  description: string;
}

export interface FunctionModel {
  tfName: string;
  token: string;
  parameters: FunctionParameterModel[];
  variadic?: FunctionParameterModel;
  tfReturnType: CtyType;
  returnType: TypeModel;
  description: string;
  deprecationMessage?: string;
}

export interface ProviderModel {
  /** Pulumi package name. */
  name: string;
  version: string;
  /** The provider's configuration: the Provider resource's inputs, and what Configure converts. */
  config: PropertyModel[];
  /**
   * The same properties as package configuration variables (`<pkg>:<name>` stack config), whose object types live in
   * the `config` module (`<pkg>:config/<name>:<name>`) rather than sharing the Provider's input types.
   */
  configVariables: PropertyModel[];
  resources: Map<string, ResourceModel>;
  dataSources: Map<string, DataSourceModel>;
  functions: Map<string, FunctionModel>;
  ephemeralResources: Map<string, EphemeralResourceModel>;
  actions: Map<string, ActionModel>;
  /** Named object types by token. */
  types: Map<string, ObjectTypeModel>;
  /**
   * Set on a model built with `lazy`: resources' and data sources' properties are built on first use, each with a
   * registry of its own, so `types` lacks theirs and their object types' tokens are not the package's. Conversions and
   * names are the same; a package schema is never rendered from it.
   */
  lazy?: true;
  /** The provider's own doc page (`docs/index.md`), when full docs were read: for the registry's `_index.md`. */
  overview?: { description: string; examples: string; frontMatter: Record<string, string> };
}

export interface ModelOptions {
  /** Pulumi package name: the TF provider type, or --provider-name. */
  packageName: string;
  /** Pulumi package version: the TF provider version ("0.0.0" for a local binary). */
  packageVersion: string;
  /**
   * TF resource/data source/ephemeral resource/function names to keep (all when empty or absent); a name kept keeps
   * everything of that name (`random_password` is both a resource and an ephemeral resource).
   */
  includes?: readonly string[];
  /** TF names to drop. */
  excludes?: readonly string[];
  /** Full docs from the provider's repository; descriptions come from the schema without them. */
  docs?: ProviderDocs;
  /** Where a resource, data source or function left out because its schema cannot be translated is named (a warning). */
  warn?: (message: string) => void;
  /** How deep a schema may nest; TF_BRIDGE_MAX_SCHEMA_DEPTH (default 100) when absent. */
  maxSchemaDepth?: number;
  /** Where the docs' examples that stay HCL say why (the engine's debug log). */
  exampleLog?: (message: string) => void;
  /**
   * Build resources' and data sources' properties on first use (`ProviderModel.lazy`): a program's run uses a few of
   * a giant provider's thousands and never renders the package schema.
   */
  lazy?: boolean;
}

/** What GetSchema adds around the model. */
export interface PackageMetadata {
  /** Our plugin's version, for `parameterization.baseProvider.version`. */
  bridgeVersion: string;
  /** The Parameterize value bytes embedded in generated SDKs. */
  parameter: Uint8Array;
  /**
   * Where the engine downloads the base plugin (terraform-provider) from, for the schema's `pluginDownloadURL`: SDKs
   * generated from a parameterized schema name it as their base provider's server (src/release.ts resolves it).
   */
  pluginDownloadURL?: string;
  /** Where the TF provider came from; registry providers get repository/publisher metadata. */
  source: { kind: "registry"; host: string; namespace: string; type: string } | { kind: "local"; path: string; type: string };
}
