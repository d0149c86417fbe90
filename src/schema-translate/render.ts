// Renders the provider model as a Pulumi package schema (JSON-ready); prints only, every decision is in the model.
import { ACTION_PROGRESS_OUTPUT, requiredIn, terraformConfigToken } from "./names.js";
import type { ActionModel, DataSourceModel, EphemeralResourceModel, FunctionModel, ObjectTypeModel, PackageMetadata, PropertyModel, ProviderModel, ResourceModel, TypeModel } from "./model.js";

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

/** `#/types/<token>` with the module slash escaped, as the schema reference requires. */
function typeRef(token: string): string {
  return `#/types/${token.replace(/\//g, "%2F")}`;
}

function typeSpec(t: TypeModel): JsonObject {
  switch (t.kind) {
    case "string":
    case "number":
    case "boolean":
      return { type: t.kind };
    case "any":
      return { $ref: "pulumi.json#/Any" };
    case "array":
      return { type: "array", items: typeSpec(t.items) };
    case "map":
      return { type: "object", additionalProperties: typeSpec(t.values) };
    case "object":
      return { $ref: typeRef(t.ref.token) };
  }
}

function propertySpec(p: PropertyModel): JsonObject {
  const spec: JsonObject = typeSpec(p.type);
  if (p.description !== "") spec["description"] = p.description;
  if (p.secret) spec["secret"] = true;
  if (p.deprecationMessage !== undefined) spec["deprecationMessage"] = p.deprecationMessage;
  return spec;
}

/** Property specs by name; `made` holds specs already rendered for the same models (a resource's inputs are some of its
 * properties), shared rather than built again: the rendered schema is only ever serialized. */
function properties(props: readonly PropertyModel[], made?: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const p of props) out[p.name] = made?.[p.name] ?? propertySpec(p);
  return out;
}

const outputRequired = (p: PropertyModel): boolean => requiredIn("output", p);
const inputRequired = (p: PropertyModel): boolean => requiredIn("input", p);

/** The object types a list of properties reaches, at any depth. */
function reachableTypes(props: readonly PropertyModel[], into = new Set<string>()): Set<string> {
  const visit = (t: TypeModel): void => {
    if (t.kind === "array") visit(t.items);
    else if (t.kind === "map") visit(t.values);
    else if (t.kind === "object" && !into.has(t.ref.token)) {
      into.add(t.ref.token);
      for (const p of t.ref.properties) visit(p.type);
    }
  };
  for (const p of props) visit(p.type);
  return into;
}

/**
 * Where the reference's generator last met an object type, which decides its `required` list: resources' types are
 * met as outputs and then as inputs (so `required` is the input rule, with the output rule for Node.js beside it),
 * data sources' types as inputs and then as outputs (so the output rule, with the input rule, or none at all when the
 * type is no input, for Node.js).
 */
interface TypePositions {
  outputLast: ReadonlySet<string>;
  inputs: ReadonlySet<string>;
  /**
   * Types of the provider's configuration alone. The reference meets a config variable's types only as outputs and the
   * Provider's only as inputs, and writes the other position's list empty (`[]`) when the type requires anything.
   */
  configOnly?: ReadonlySet<string>;
}

const NO_POSITIONS: TypePositions = { outputLast: new Set(), inputs: new Set() };

function names(props: readonly PropertyModel[], pick: (p: PropertyModel) => boolean): string[] {
  return props.filter(pick).map((p) => p.name).sort();
}

function withList(obj: JsonObject, key: string, list: string[]): JsonObject {
  if (list.length > 0) obj[key] = list;
  return obj;
}

function objectType(t: ObjectTypeModel, positions: TypePositions): JsonObject {
  const spec: JsonObject = { type: "object", properties: properties(t.properties) };
  if (t.description !== "") spec["description"] = t.description;
  const requiredInputs = names(t.properties, inputRequired);
  const requiredOutputs = names(t.properties, outputRequired);
  if (positions.outputLast.has(t.token)) {
    withList(spec, "required", requiredOutputs);
    const asInput = positions.inputs.has(t.token) ? requiredInputs : [];
    if (asInput.join() !== requiredOutputs.join()) spec["language"] = { nodejs: { requiredInputs: asInput } };
    return spec;
  }
  withList(spec, "required", requiredInputs);
  if (positions.configOnly?.has(t.token) === true) {
    if (requiredInputs.length > 0) spec["language"] = { nodejs: t.token.includes(":config/") ? { requiredInputs: [] } : { requiredOutputs: [] } };
    return spec;
  }
  if (requiredOutputs.join() !== requiredInputs.join()) {
    spec["language"] = { nodejs: { requiredOutputs } };
  }
  return spec;
}

/**
 * Data sources and ephemeral resources alike: inputs are the configurable attributes, outputs every attribute. An
 * ephemeral resource's outputs are all secret, as Invoke returns them.
 */
function dataSourceFunction(ds: DataSourceModel | EphemeralResourceModel, secretOutputs = false): JsonObject {
  const fnName = ds.token.split(":")[2]!;
  const inputs = ds.properties.filter((p) => p.input);
  const spec: JsonObject = {};
  if (ds.description !== "") spec["description"] = ds.description;
  if (inputs.length > 0) {
    spec["inputs"] = withList(
      { description: `Arguments of ${fnName}.`, type: "object", properties: properties(inputs) },
      "required",
      names(inputs, inputRequired),
    );
  }
  spec["outputs"] = withList(
    { description: `Values returned by ${fnName}.`, type: "object", properties: properties(secretOutputs ? ds.properties.map((p) => ({ ...p, secret: true })) : ds.properties) },
    "required",
    names(ds.properties, outputRequired),
  );
  if (ds.deprecationMessage !== undefined) spec["deprecationMessage"] = ds.deprecationMessage;
  return spec;
}

/** An action: its configuration as inputs; its one output the progress it reported (none in a preview). */
function actionFunction(a: ActionModel): JsonObject {
  const fnName = a.token.split(":")[2]!;
  const progress = { type: "array", items: { type: "string" }, description: "The progress messages the action sent while it ran, in order; absent in a preview, which only plans the action." };
  return { ...dataSourceFunction(a), outputs: { description: `What ${fnName} reported.`, type: "object", properties: { [ACTION_PROGRESS_OUTPUT]: progress } } };
}

function providerFunction(fn: FunctionModel): JsonObject {
  const params = [...fn.parameters, ...(fn.variadic ? [fn.variadic] : [])];
  const props: JsonObject = {};
  for (const p of params) {
    const spec: JsonObject = { ...typeSpec(p.type) };
    if (p.description !== "") spec["description"] = p.description;
    props[p.name] = spec;
  }
  const spec: JsonObject = {};
  if (fn.description !== "") spec["description"] = fn.description;
  if (params.length > 0) {
    spec["inputs"] = withList({ type: "object", properties: props }, "required", params.filter((p) => p.required).map((p) => p.name));
    spec["multiArgumentInputs"] = params.map((p) => p.name);
  }
  // An object return is spelled out as the function's outputs, so every language (YAML included) reads its fields;
  // anything else is a plain type, which Invoke answers as `{result: value}` and SDKs unwrap.
  spec["outputs"] = fn.returnType.kind === "object" ? objectType(fn.returnType.ref, NO_POSITIONS) : typeSpec(fn.returnType);
  if (fn.deprecationMessage !== undefined) spec["deprecationMessage"] = fn.deprecationMessage;
  return spec;
}

function terraformConfigFunction(): JsonObject {
  return {
    description: "This function returns a Terraform config object with terraform-namecased keys, to be used with the Terraform Module Provider.",
    inputs: { type: "object", properties: { __self__: { $ref: "#/provider" } }, required: ["__self__"] },
    outputs: {
      type: "object",
      properties: { result: { type: "object", additionalProperties: { $ref: "pulumi.json#/Any" } } },
      required: ["result"],
    },
  };
}

/** Go import paths carry the major version from 2 on, as Go modules require. */
export function goImportBase(name: string, version: string): string {
  const major = Number(version.split(".")[0] ?? "0");
  const v = major >= 2 ? `/v${major}` : "";
  return `github.com/pulumi/pulumi-terraform-provider/sdks/go/${name}${v}/${name}`;
}

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64");
}

/** A list resource's configuration as the resource's `listInputs` (what `pulumi do <pkg> <Resource> list` takes). */
function listInputs(r: ResourceModel): JsonObject {
  const inputs = r.list!.properties.filter((p) => p.input);
  const spec: JsonObject = { type: "object", properties: properties(inputs) };
  if (r.list!.tfSchema.block.description !== "") spec["description"] = r.list!.tfSchema.block.description;
  return withList(spec, "required", names(inputs, inputRequired));
}

export function renderPackageSchema(model: ProviderModel, meta: PackageMetadata): JsonObject {
  const { name, version } = model;
  const upstream =
    meta.source.kind === "registry"
      ? `https://github.com/${meta.source.namespace}/terraform-provider-${meta.source.type}`
      : undefined;
  const attribution = upstream
    ? `This Pulumi package is based on the [\`${meta.source.kind === "registry" ? meta.source.type : name}\` Terraform Provider](${upstream}).`
    : `This Pulumi package is based on the \`${name}\` Terraform provider (a local binary).`;
  const readme = `> ${attribution}\n> It is generated from the provider's schema by the Terraform bridge; the provider runs as a Terraform plugin under Pulumi.`;

  // The Terraform provider's own name, also under --provider-name, as the reference describes it; for a registry
  // provider also its address and version, which users of SDKs ask after (the package version is the same number).
  const description =
    meta.source.kind === "registry"
      ? `A Pulumi provider dynamically bridged from ${meta.source.type} (Terraform provider ${meta.source.host}/${meta.source.namespace}/${meta.source.type} ${version}).`
      : `A Pulumi provider dynamically bridged from ${meta.source.type}.`;
  const schema: JsonObject = {
    name,
    version,
    description,
    attribution,
  };
  if (upstream !== undefined && meta.source.kind === "registry") {
    schema["repository"] = upstream;
    schema["publisher"] = meta.source.namespace;
  }
  if (meta.pluginDownloadURL !== undefined) schema["pluginDownloadURL"] = meta.pluginDownloadURL;
  schema["meta"] = { moduleFormat: "(.*)(?:/[^/]*)" };
  schema["language"] = {
    csharp: { compatibility: "tfbridge20", liftSingleValueMethodReturns: true, respectSchemaVersion: true },
    go: {
      importBasePath: goImportBase(name, version),
      rootPackageName: name.replace(/[^A-Za-z0-9_]/g, ""),
      liftSingleValueMethodReturns: true,
      generateExtraInputTypes: true,
      respectSchemaVersion: true,
    },
    nodejs: {
      packageDescription: description,
      readme,
      compatibility: "tfbridge20",
      disableUnionOutputTypes: true,
      liftSingleValueMethodReturns: true,
      respectSchemaVersion: true,
    },
    python: { readme, compatibility: "tfbridge20", respectSchemaVersion: true, pyproject: { enabled: true } },
  };

  const configVars: JsonObject = {};
  for (const p of model.configVariables) configVars[p.name] = propertySpec(p);
  schema["config"] = withList(model.configVariables.length > 0 ? { variables: configVars } : {}, "required", names(model.configVariables, (p) => p.required));

  const configInputs = model.config.filter((p) => p.input);
  const configProps = properties(configInputs);
  schema["provider"] = withList(
    withList(
      {
        description: `The provider type for the ${name} package. Resources use the package-wide configuration unless given an explicit provider instance.`,
        properties: configProps,
        inputProperties: configProps,
      },
      "required",
      names(configInputs, (p) => p.required),
    ),
    "requiredInputs",
    names(configInputs, (p) => p.required),
  );
  const terraformConfig = terraformConfigToken(name);
  (schema["provider"] as JsonObject)["methods"] = { terraformConfig };

  const resources: JsonObject = {};
  for (const r of model.resources.values()) {
    const inputs = r.properties.filter((p) => p.input);
    const stateProps = properties(r.properties);
    const spec: JsonObject = {};
    if (r.description !== "") spec["description"] = r.description;
    spec["properties"] = stateProps;
    withList(spec, "required", names(r.properties, outputRequired));
    spec["inputProperties"] = properties(inputs, stateProps);
    withList(spec, "requiredInputs", names(inputs, inputRequired));
    spec["stateInputs"] = {
      description: `Input properties used for looking up and filtering ${r.token.split(":")[2]} resources.`,
      type: "object",
      properties: stateProps,
    };
    if (r.list !== undefined) spec["listInputs"] = listInputs(r);
    if (r.aliases.length > 0) spec["aliases"] = r.aliases.map((type) => ({ type }));
    if (r.deprecationMessage !== undefined) spec["deprecationMessage"] = r.deprecationMessage;
    resources[r.token] = spec;
  }
  schema["resources"] = resources;

  const functions: JsonObject = {};
  for (const ds of model.dataSources.values()) functions[ds.token] = dataSourceFunction(ds);
  for (const fn of model.functions.values()) functions[fn.token] = providerFunction(fn);
  for (const e of model.ephemeralResources.values()) functions[e.token] = dataSourceFunction(e, true);
  for (const a of model.actions.values()) functions[a.token] = actionFunction(a);
  functions[terraformConfig] = terraformConfigFunction();
  schema["functions"] = functions;

  const types: JsonObject = {};
  const dataSources = [...model.dataSources.values()];
  const elsewhere = reachableTypes([...dataSources, ...model.resources.values(), ...model.ephemeralResources.values()].flatMap((e) => e.properties));
  const positions: TypePositions = {
    configOnly: new Set([...reachableTypes([...model.config, ...model.configVariables])].filter((t) => !elsewhere.has(t))),
    outputLast: reachableTypes(dataSources.flatMap((d) => d.properties)),
    inputs: reachableTypes(
      dataSources.flatMap((d) => d.properties.filter((p) => p.input)),
      reachableTypes([...model.resources.values()].flatMap((r) => [...r.properties, ...(r.list?.properties ?? [])].filter((p) => p.input))),
    ),
  };
  for (const [token, t] of [...model.types].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) types[token] = objectType(t, positions);
  schema["types"] = types;

  schema["parameterization"] = {
    baseProvider: { name: "terraform-provider", version: meta.bridgeVersion },
    parameter: base64(meta.parameter),
  };
  return schema;
}
