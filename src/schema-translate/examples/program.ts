// The language-neutral program an upstream HCL example becomes: resolved against the provider model (tokens, Pulumi
// names, schema types), in dependency order, ready for each language's renderer.
import type { FunctionModel, ObjectTypeModel, PropertyModel, TypeModel } from "../model.js";

/** The languages an example is rendered in, in the order the code chooser shows them. */
export const EXAMPLE_LANGUAGES = ["typescript", "python", "csharp", "go", "java", "yaml"] as const;
export type ExampleLanguage = (typeof EXAMPLE_LANGUAGES)[number];

export interface Program {
  /** Pulumi package of the provider whose docs hold the example: `random`. */
  pkg: string;
  /** Stack configuration the example reads (its `variable` blocks and every `var.x` it uses), in first-use order. */
  config: ConfigVariable[];
  /** Resources, invokes and explicit providers, each after everything it refers to. */
  nodes: ProgramNode[];
  /** Stack outputs (`output` blocks), in source order. */
  outputs: { name: string; value: Value }[];
  /**
   * Other providers the example uses (`aws`), rendered as if each were bridged by this plugin under its Terraform
   * name, with a note under the example saying so.
   */
  otherProviders: string[];
  /** Go import path of each package's SDK (`github.com/pulumi/pulumi-terraform-provider/sdks/go/random/v3/random`). */
  goImports: Record<string, string>;
}

export interface ConfigVariable {
  /** The Terraform variable name, used as the config key as written (`ami_id`). */
  name: string;
  /** The program variable holding it, in camelCase (`amiId`). */
  variable: string;
  type: "string" | "number" | "boolean";
  default?: Value;
}

/** Where a node's entity lives: a package's resource or function as SDKs name it. */
export interface Entity {
  /** Pulumi package: this provider's, or another provider's Terraform name. */
  pkg: string;
  /** The Pulumi token: `random:index/password:Password`, `tls:index/getCertificate:getCertificate`, `random:ephemeral/getPassword:getPassword`. */
  token: string;
  /** The entity's properties (a resource's, or a function's inputs and outputs); empty for another provider's. */
  properties: readonly PropertyModel[];
  /** Whether it belongs to another provider, whose schema this one does not know. */
  foreign: boolean;
}

interface NodeBase {
  /** The HCL block's name label: the Pulumi resource name (`ed25519-example`). */
  name: string;
  /** The program variable: the label in camelCase, unique in the program (`ed25519Example`). */
  variable: string;
}

/**
 * A resource repeated (`count`, `for_each`): one per index from 0 below `count`, or one per element of `items` (a map:
 * its keys; a list or set of strings: each string is key and value). The program variable then holds them all, a list
 * by index or a map by key, and each is named `<name>-<index>` / `<name>-<key>`.
 */
export type Loop = { kind: "count"; count: Value } | { kind: "forEach"; items: Value };

export interface ResourceNode extends NodeBase {
  kind: "resource";
  entity: Entity;
  args: ObjectValue;
  loop?: Loop;
  /** Variables of the nodes named in `depends_on`. */
  dependsOn: string[];
  /** Variable of an explicit provider node (`provider = tls.west`, or the example's single `provider "tls"` block). */
  provider?: string;
}

/** A data source, ephemeral resource or provider function, called in its output form. */
export interface InvokeNode extends NodeBase {
  kind: "invoke";
  role: "dataSource" | "ephemeral" | "function";
  entity: Entity;
  /** Named arguments; a provider function's parameters are named by the schema, in its order. */
  args: ObjectValue;
  /** For a provider function: its model (multi-argument SDK signatures, a plain result unwrapped). */
  function?: FunctionModel;
  provider?: string;
}

/** An explicit `provider "<pkg>" { ... }` block: a Provider resource the example's other nodes are given. */
export interface ProviderNode extends NodeBase {
  kind: "provider";
  pkg: string;
  args: ObjectValue;
  /** The provider's configuration properties (this provider's model), empty for another provider's. */
  properties: readonly PropertyModel[];
}

export type ProgramNode = ResourceNode | InvokeNode | ProviderNode;

/**
 * A value with the schema type expected where it appears (undefined where the schema does not say: another provider's
 * arguments, a `dynamic` attribute, a map's values of type any).
 */
export type Value =
  | { kind: "string"; value: string; type?: TypeModel }
  | { kind: "number"; value: number; type?: TypeModel }
  | { kind: "bool"; value: boolean; type?: TypeModel }
  | { kind: "null"; type?: TypeModel }
  | { kind: "list"; items: Value[]; type?: TypeModel }
  /** A map attribute, or an object literal where the schema expects no object type: keys are data, written as given. */
  | { kind: "map"; entries: { key: string; value: Value }[]; type?: TypeModel }
  | ObjectValue
  /** A string with interpolations: literal text and values, in order. */
  | { kind: "template"; parts: (string | Value)[]; type?: TypeModel }
  /** An attribute of another node (`random_pet.server.id`), through Pulumi names; an Output in every SDK. */
  | { kind: "ref"; node: string; path: PathStep[]; type?: TypeModel }
  /** A stack configuration value (`var.ami_id`). */
  | { kind: "config"; variable: string; type?: TypeModel }
  /** A built-in function Pulumi programs have an equivalent for. */
  | { kind: "call"; fn: Builtin; args: Value[]; type?: TypeModel }
  /**
   * Inside a repeated resource: its index (`count.index`, a number), or its element's key or value (`each.key`,
   * `each.value`).
   */
  | { kind: "loop"; part: "index" | "key" | "value"; type?: TypeModel };

/**
 * An object of schema properties (a resource's or function's arguments, a nested block or object attribute): keys
 * are Pulumi property names, and `objectType` names the args type SDKs generate for it (undefined at the top level
 * and for another provider's objects).
 */
export interface ObjectValue {
  kind: "object";
  properties: { tfName: string; name: string; value: Value }[];
  objectType?: ObjectTypeModel;
  type?: TypeModel;
}

/**
 * One step into a referenced value: a property (Pulumi name) or an element of a list or map. A repeated resource is
 * referred to through one of its instances first: an index step (`count`) or a key step (`for_each`) into the
 * program's list or map of them, which is a plain collection, not an Output.
 */
export type PathStep = { kind: "property"; tfName: string; name: string } | { kind: "index"; index: number } | { kind: "key"; key: string };

/**
 * Terraform functions with a Pulumi equivalent in every language: `file` reads a file (YAML `fn::readFile`),
 * `jsonencode` and `jsondecode` JSON, `trimspace` trims white space.
 */
export type Builtin = "file" | "jsonencode" | "jsondecode" | "trimspace";

/** Why an example could not be converted: it keeps its HCL, and the reason goes to the debug log. */
export class ConversionError extends Error {}

/**
 * The outcome of converting one example: a program per language (a language that lacks something the example needs,
 * such as Pulumi YAML a `jsondecode`, is left out, saying why), or the reason it stays HCL.
 */
export type Conversion =
  | { ok: true; program: Program; code: Partial<Record<ExampleLanguage, string>>; skipped: { language: ExampleLanguage; reason: string }[] }
  | { ok: false; reason: string };

/** Whether a value holds an Output (a reference to another node), so it must be combined as one. */
export function holdsOutput(v: Value): boolean {
  switch (v.kind) {
    case "ref":
      return true;
    case "list":
      return v.items.some(holdsOutput);
    case "map":
      return v.entries.some((e) => holdsOutput(e.value));
    case "object":
      return v.properties.some((p) => holdsOutput(p.value));
    case "template":
      return v.parts.some((p) => typeof p !== "string" && holdsOutput(p));
    case "call":
      return v.args.some(holdsOutput);
    default:
      return false;
  }
}

/**
 * `base`, or the first of `base_`, `base__`… no one has taken yet, which is then taken: how the renderers keep a
 * program's variables clear of their language's keywords, imports and each other.
 */
export function claimName(taken: Set<string>, base: string): string {
  let name = base;
  while (taken.has(name)) name += "_";
  taken.add(name);
  return name;
}
