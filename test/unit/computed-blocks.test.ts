// Terraform 1.16's computed nested blocks and planned private data, rule by rule: the plan's configuration
// (objchange.PrepareComputedBlocks), the Pulumi property's shape, and the fields on the wire (tfplugin6 6.11 as
// Terraform v1.16.4 publishes it). test/integration/computed-blocks.test.ts checks them against Terraform itself.
import { describe, expect, it } from "vitest";
import { buildProviderModel, renderPackageSchema } from "../../src/schema-translate/index.js";
import { emptiedComputedBlocks } from "../../src/terraform/values.js";
import { encodeMessage, protoRoot } from "../../src/wire/proto.js";
import { block, comp, nested, opt, provider, S } from "../support/tf-schema.js";

const computedOnly = block([comp("address", S)], [], { computed: true });
const optionalComputed = block([opt("port", S, { computed: true }), comp("state", S)], [nested("inner", "list", computedOnly)], { computed: true });
const resource = block(
  [opt("name", S), comp("id", S)],
  [nested("addresses", "list", computedOnly), nested("rules", "set", optionalComputed), nested("labels", "map", computedOnly), nested("plain", "list", block([opt("x", S)]))],
);

describe("the plan's configuration (PrepareComputedBlocks)", () => {
  it("makes an empty computed list, set or map block null and leaves every other block as written", () => {
    expect(emptiedComputedBlocks(resource, { name: "a", id: null, addresses: [], rules: [], labels: {}, plain: [] })).toEqual({
      name: "a",
      id: null,
      addresses: null,
      rules: null,
      labels: null,
      plain: [],
    });
  });

  it("keeps configured elements, emptying computed blocks nested in them", () => {
    const rules = [{ port: "80", state: null, inner: [] }];
    expect(emptiedComputedBlocks(resource, { name: "a", id: null, addresses: [{ address: null }], rules, labels: {}, plain: [] })).toMatchObject({
      addresses: [{ address: null }],
      rules: [{ port: "80", state: null, inner: null }],
    });
  });

  it("returns the very value for a schema without computed blocks", () => {
    const v = { x: [] };
    expect(emptiedComputedBlocks(block([], [nested("x", "list", block([opt("y", S)]))]), v)).toBe(v);
  });
});

describe("a computed block's Pulumi property", () => {
  const m = buildProviderModel(provider({ resources: { acme_server: resource } }), { packageName: "acme", packageVersion: "1.0.0" });
  const props = m.resources.get("acme_server")!.properties;
  const p = (tf: string) => props.find((x) => x.tfName === tf)!;
  const spec = renderPackageSchema(m, {
    bridgeVersion: "0.1.0",
    parameter: Buffer.from("{}"),
    source: { kind: "local", path: "/x/terraform-provider-acme", type: "acme" },
  }).resources as Record<string, { inputProperties: Record<string, unknown>; properties: Record<string, unknown>; required?: string[] }>;
  const r = spec["acme:index/server:Server"]!;

  it("is output-only when nothing inside it can be configured", () => {
    expect(p("addresses")).toMatchObject({ input: false, computed: true });
    expect(r.inputProperties["addresses"]).toBeUndefined();
    expect(r.properties["addresses"]).toBeDefined();
    expect(r.required).toContain("addresses");
  });

  it("is both an input and an output when an attribute inside it is optional", () => {
    expect(p("rules")).toMatchObject({ input: true, computed: true });
    expect(r.inputProperties["rules"]).toBeDefined();
    expect(r.required).toContain("rules");
  });

  it("leaves a block that is not computed an optional input and output", () => {
    expect(p("plain")).toMatchObject({ input: true, computed: false });
    expect(r.required ?? []).not.toContain("plain");
  });
});

describe("the wire fields", () => {
  const root = protoRoot(["tfplugin6/tfplugin6.proto"]);
  const decode = (type: string, bytes: Buffer) => root.lookupType(type).toObject(root.lookupType(type).decode(bytes)) as Record<string, unknown>;

  it("carries Block.computed (8), store_planned_private (3), computed_blocks_allowed (4) and planned_private (9)", () => {
    // Field tags as Terraform v1.16.4's tfplugin6.proto numbers them: (8<<3)|0, (3<<3)|0, (4<<3)|0, (9<<3)|2.
    expect(encodeMessage(root.lookupType("tfplugin6.Schema.Block"), { computed: true })).toEqual(Buffer.from([0x40, 1]));
    expect(encodeMessage(root.lookupType("tfplugin6.ClientCapabilities"), { store_planned_private: true, computed_blocks_allowed: true })).toEqual(Buffer.from([0x18, 1, 0x20, 1]));
    const req = encodeMessage(root.lookupType("tfplugin6.PlanResourceChange.Request"), { planned_private: Buffer.from("p") });
    expect(req).toEqual(Buffer.from([0x4a, 1, 0x70]));
    expect(decode("tfplugin6.PlanResourceChange.Request", req)["planned_private"]).toEqual(Buffer.from("p"));
  });
});
