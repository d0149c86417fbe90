// Small provider schemas, written here, of the shapes real providers have that the reference bridge cannot make a
// package of (pulumi/pulumi-terraform-provider #26, #67, #69, dynamic attributes): `terraform providers schema -json`
// dumps the replay peer serves (test/peers/replay), each with what the reference answers.

/** An attribute as a schema dump writes it. */
type DumpAttribute = { type?: unknown; nested_type?: { nesting_mode: string; attributes: Record<string, DumpAttribute> }; required?: boolean; optional?: boolean; computed?: boolean; sensitive?: boolean; description?: string };
interface DumpBlock {
  attributes?: Record<string, DumpAttribute>;
  block_types?: Record<string, { nesting_mode: string; block: DumpBlock; min_items?: number; max_items?: number }>;
}

const req = (type: unknown): DumpAttribute => ({ type, required: true });
const opt = (type: unknown): DumpAttribute => ({ type, optional: true });
const comp = (type: unknown): DumpAttribute => ({ type, computed: true });
/** A resource or data source of a few plain attributes, with the computed `id` every SDKv2 resource has. */
const plain = (extra: Record<string, DumpAttribute> = {}): { version: number; block: DumpBlock } => ({
  version: 0,
  block: { attributes: { id: { type: "string", optional: true, computed: true }, name: req("string"), ...extra } },
});

/** A whole dump of one provider, `registry.terraform.io/acme/<type>`. */
function dump(type: string, parts: { resources?: Record<string, ReturnType<typeof plain>>; dataSources?: Record<string, ReturnType<typeof plain>> }): object {
  return {
    format_version: "1.0",
    provider_schemas: {
      [`registry.terraform.io/acme/${type}`]: {
        provider: { version: 0, block: { attributes: { endpoint: opt("string") } } },
        resource_schemas: parts.resources ?? {},
        data_source_schemas: parts.dataSources ?? {},
      },
    },
  };
}

export interface GapShape {
  /** What the case is, and the reference's issue. */
  name: string;
  issue: string;
  /** The provider binary's file name, the replay peer linked under it. */
  binary: string;
  dump: object;
  /**
   * Where the reference fails: its Parameterize or GetSchema (`answer`: the error or, for a panic, its log holds
   * the text), or Pulumi's schema binder on the schema it answers (`binding`: `pulumi package gen-sdk` says it);
   * undefined where the reference makes a package too.
   */
  reference?: { answer: string } | { binding: string };
}

/**
 * Resources and data sources whose names do not all start with the provider's name: catchpoint's `api_test` beside
 * `catchpoint_*`, alibabacloudstack's `alibabacloudStack_*` data sources beside `alibabacloudstack_*` resources.
 */
export const noPrefix: GapShape = {
  name: "names without the provider's prefix",
  issue: "pulumi/pulumi-terraform-provider#26",
  binary: "terraform-provider-acme",
  dump: dump("acme", {
    resources: { acme_widget: plain(), api_test: plain({ url: opt("string") }) },
    dataSources: { acme_widgets: plain({ ids: comp(["list", "string"]) }), acmeCloud_regions: plain({ names: comp(["list", "string"]) }) },
  }),
  reference: { answer: "token 'api_test' missing package prefix 'acme'" },
};

/**
 * Names that are one Pulumi token but for case: fortios' `firewall_security_policy` beside `firewall_securitypolicy`
 * (which the reference now tells apart with `V2`), and a resource `get_zone` beside a data source `zone`
 * (`GetZone` and `getZone`), which it does not.
 */
export const caseClash: GapShape = {
  name: "tokens that differ only in case",
  issue: "pulumi/pulumi-terraform-provider#67",
  binary: "terraform-provider-acme",
  dump: dump("acme", {
    resources: { acme_firewall_security_policy: plain(), acme_firewall_securitypolicy: plain({ action: opt("string") }), acme_get_zone: plain() },
    dataSources: { acme_zone: plain({ zone_id: comp("string") }) },
  }),
  reference: { binding: "multiple tokens map to acme:index/getzone:getzone" },
};

/** The reference's case of #67 alone (two resources one token but for case): both bridges make a package. */
export const caseClashResources: GapShape = {
  name: "resources that differ only in case",
  issue: "pulumi/pulumi-terraform-provider#67",
  binary: "terraform-provider-acme",
  dump: dump("acme", { resources: { acme_firewall_security_policy: plain(), acme_firewall_securitypolicy: plain({ action: opt("string") }) } }),
};

/** A provider binary as a release archive names it (`terraform-provider-redpanda_v0.10.1`). */
export const versionedBinary: GapShape = {
  name: "a binary named with its version",
  issue: "pulumi/pulumi-terraform-provider#69",
  binary: "terraform-provider-acme_v1.2.3",
  dump: dump("acme", { resources: { acme_widget: plain() }, dataSources: { acme_widget: plain() } }),
  reference: { binding: "#/name: does not match pattern" },
};

/**
 * Attributes of Terraform's dynamic type at every place a schema can hold one. The reference makes a package, but
 * types a map of dynamic values as a map of strings (pkg/tfgen makePropertyType: a map without an element type is
 * TF's map of strings), so an object in it fails.
 */
export const dynamicAttributes: GapShape = {
  name: "dynamic attributes",
  issue: "dynamic attributes (pulumi/pulumi-terraform-bridge#2127)",
  binary: "terraform-provider-acme",
  dump: dump("acme", {
    resources: {
      acme_manifest: {
        version: 0,
        block: {
          attributes: {
            id: comp("string"),
            manifest: req("dynamic"),
            object: comp("dynamic"),
            list_of_any: opt(["list", "dynamic"]),
            set_of_any: opt(["set", "dynamic"]),
            map_of_any: opt(["map", "dynamic"]),
            shaped: opt(["object", { kind: "string", spec: "dynamic" }]),
            nested: { nested_type: { nesting_mode: "list", attributes: { value: opt("dynamic") } }, optional: true },
          },
          block_types: { wait: { nesting_mode: "list", max_items: 1, block: { attributes: { fields: opt("dynamic") } } } },
        },
      },
    },
    dataSources: { acme_manifest: plain({ result: comp("dynamic") }) },
  }),
};

/** A tuple-typed attribute (`tuple([string, dynamic])`), which Terraform's type system allows and the reference panics on. */
export const tupleAttribute: GapShape = {
  name: "a tuple attribute",
  issue: "dynamic attributes: a tuple holding one",
  binary: "terraform-provider-acme",
  dump: dump("acme", { resources: { acme_pair: plain({ pair: opt(["tuple", ["string", "dynamic"]]) }) } }),
  reference: { answer: "impossible: sch.Type() should be one of TypeMap, TypeList, TypeSet, TypeDynamic" },
};

/** Attributes whose names are one Pulumi name but for case (`display_name`, `displayName`, `DisplayName`). */
export const propertyCase: GapShape = {
  name: "properties that differ only in case",
  issue: "names that differ only in case",
  binary: "terraform-provider-acme",
  dump: dump("acme", { resources: { acme_user: plain({ display_name: opt("string"), displayName: opt("string"), DisplayName: opt("number") }) } }),
};

export const gapShapes: GapShape[] = [noPrefix, caseClash, caseClashResources, versionedBinary, dynamicAttributes, tupleAttribute, propertyCase];

/**
 * Every shape in one provider, served from a binary named with its version: what the SDKs are generated from and
 * compiled, one compile per language. Resources and data sources keep their names; those two shapes share are one.
 */
export function allGaps(): GapShape {
  const merged = { resource_schemas: {} as Record<string, unknown>, data_source_schemas: {} as Record<string, unknown> };
  for (const g of gapShapes) {
    const p = Object.values((g.dump as { provider_schemas: Record<string, typeof merged> }).provider_schemas)[0]!;
    Object.assign(merged.resource_schemas, p.resource_schemas);
    Object.assign(merged.data_source_schemas, p.data_source_schemas);
  }
  const d = dump("acme", {}) as { provider_schemas: Record<string, typeof merged> };
  Object.assign(Object.values(d.provider_schemas)[0]!, merged);
  return { name: "every shape at once", issue: "all of the above", binary: versionedBinary.binary, dump: d };
}
