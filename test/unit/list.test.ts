// List resources' converters: listInputs in the schema, the ids listed items import by, the List stream's messages,
// and the pull iterator over a server stream.
import { describe, expect, it } from "vitest";
import { listedId } from "../../src/bridge/list.js";
import { buildProviderModel } from "../../src/schema-translate/index.js";
import { renderPackageSchema } from "../../src/schema-translate/render.js";
import { decodeList, encodeList } from "../../src/server/messages.js";
import { RpcError } from "../../src/server/status.js";
import { pullStream } from "../../src/terraform/list.js";
import type { IdentitySchema, ProviderSchema } from "../../src/terraform/types.js";
import { block, comp, nested, opt, provider, req, S, N, schemaOf } from "../support/tf-schema.js";

function withLists(schema: ProviderSchema, lists: Record<string, ReturnType<typeof block>>): ProviderSchema {
  return { ...schema, listResources: new Map(Object.entries(lists).map(([k, v]) => [k, schemaOf(v)])) };
}

const META = { bridgeVersion: "0.1.0", parameter: new Uint8Array(), source: { kind: "local" as const, path: "/x", type: "acme" } };

function render(schema: ProviderSchema): Record<string, Record<string, unknown>> {
  const model = buildProviderModel(schema, { packageName: "acme", packageVersion: "1.0.0" });
  return renderPackageSchema(model, META) as unknown as Record<string, Record<string, unknown>>;
}

describe("listInputs", () => {
  const base = provider({
    resources: {
      acme_widget: block([comp("id", S), req("name", S)]),
      acme_gadget: block([comp("id", S), req("name", S)]),
    },
  });

  it("is the list resource's config on the managed resource of the same name, named and typed like any input", () => {
    const schema = render(
      withLists(base, {
        acme_widget: block([req("region", S), opt("name_prefix", S, { description: "Only these." }), opt("max_age", N)], [nested("tag_filter", "list", block([req("key", S)]))], { description: "Lists widgets." }),
        // A list resource with no managed resource of its name: core refuses it, so nothing carries it.
        acme_orphan: block([opt("x", S)]),
      }),
    );
    const widget = schema["resources"]!["acme:index/widget:Widget"] as Record<string, unknown>;
    expect(widget["listInputs"]).toEqual({
      type: "object",
      description: "Lists widgets.",
      properties: {
        maxAge: { type: "number" },
        namePrefix: { type: "string", description: "Only these." },
        region: { type: "string" },
        tagFilters: { type: "array", items: { $ref: "#/types/acme:index%2FWidgetListTagFilter:WidgetListTagFilter" } },
      },
      required: ["region"],
    });
    expect(schema["types"]!["acme:index/WidgetListTagFilter:WidgetListTagFilter"]).toMatchObject({ properties: { key: { type: "string" } }, required: ["key"] });
    const gadget = schema["resources"]!["acme:index/gadget:Gadget"] as Record<string, unknown>;
    expect(gadget["listInputs"]).toBeUndefined();
    expect(JSON.stringify(schema)).not.toContain("orphan");
  });

  it("leaves a schema without list resources exactly as before", () => {
    expect(render(withLists(base, {}))).toEqual(render(base));
  });
});

describe("listedId", () => {
  const identitySchema: IdentitySchema = {
    version: 1,
    attributes: [
      { name: "region", type: S, requiredForImport: true, optionalForImport: false, description: "" },
      { name: "name", type: S, requiredForImport: true, optionalForImport: false, description: "" },
    ],
  };
  const model = (hasId: boolean) => {
    const attrs = hasId ? [comp("id", S), req("name", S)] : [req("name", S)];
    return buildProviderModel(provider({ resources: { acme_widget: block(attrs) } }), { packageName: "acme", packageVersion: "1.0.0" }).resources.get("acme_widget")!;
  };

  it("is the object's id when the Pulumi id is the id attribute", () => {
    expect(listedId(model(true), { displayName: "w", diagnostics: [], identity: { region: "eu", name: "w" }, resourceObject: { id: "w-1", name: "w" } }, identitySchema)).toBe("w-1");
  });

  it("is the identity as JSON (what import reads as an identity) without an id, or without the object", () => {
    const identity = { region: "eu", name: "w" };
    expect(JSON.parse(listedId(model(false), { displayName: "w", diagnostics: [], identity, resourceObject: { name: "w" } }, identitySchema))).toEqual(identity);
    expect(JSON.parse(listedId(model(true), { displayName: "w", diagnostics: [], identity }, identitySchema))).toEqual(identity);
  });

  it("refuses an item it could not import, naming it", () => {
    expect(() => listedId(model(false), { displayName: "w", diagnostics: [], resourceObject: { name: "w" } }, undefined)).toThrow(/acme_widget: the provider listed "w" with neither an id nor an identity/);
  });
});

describe("List messages", () => {
  const request = { token: "acme:index/widget:Widget", query: null, limit: "0", page_size: "0", continuation_token: "" };

  it("decodes counts, an absent query as none, and refuses a negative count", () => {
    expect(decodeList({ ...request, limit: "5", page_size: "2", continuation_token: "abc" })).toEqual({ token: request.token, query: {}, limit: 5, pageSize: 2, continuationToken: "abc" });
    expect(decodeList({ ...request, limit: "9223372036854775807" }).limit).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => decodeList({ ...request, limit: "-1" })).toThrow(RpcError);
    expect(() => decodeList({ ...request, page_size: "-3" })).toThrow(/page_size must be 0 or more, got -3/);
  });

  it("encodes one Computed, or the results followed by one Continuation", () => {
    expect(encodeList("computed")).toEqual([{ computed: {} }]);
    expect(encodeList({ results: [{ id: "a", name: "A" }, { id: "b", name: "" }], continuationToken: "t" })).toEqual([
      { result: { id: "a", name: "A" } },
      { result: { id: "b", name: "" } },
      { continuation: { continuation_token: "t" } },
    ]);
    expect(encodeList({ results: [], continuationToken: "" })).toEqual([{ continuation: { continuation_token: "" } }]);
  });
});

describe("pullStream", () => {
  it("yields pushed items in order and then ends", async () => {
    const it = pullStream<number>((push, end) => {
      push(1);
      setImmediate(() => {
        push(2);
        end(undefined);
      });
      return () => undefined;
    });
    const got: number[] = [];
    for await (const n of it) got.push(n);
    expect(got).toEqual([1, 2]);
  });

  it("yields what arrived before a failure, then throws it", async () => {
    const it = pullStream<number>((push, end) => {
      push(1);
      end(new Error("stream broke"));
      return () => undefined;
    });
    const got: number[] = [];
    await expect(
      (async () => {
        for await (const n of it) got.push(n);
      })(),
    ).rejects.toThrow("stream broke");
    expect(got).toEqual([1]);
  });

  it("cancels the call when the reader stops early, and drops what comes after", async () => {
    let cancelled = 0;
    let pushLater: ((n: number) => void) | undefined;
    const it = pullStream<number>((push) => {
      push(1);
      push(2);
      pushLater = push;
      return () => cancelled++;
    });
    for await (const n of it) if (n === 1) break;
    expect(cancelled).toBe(1);
    pushLater!(3);
    expect(await it.next()).toEqual({ value: undefined, done: true });
  });
});
