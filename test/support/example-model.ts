// A small provider model (`ex`) with every shape the example binder and renderers handle, for their unit tests.
import { buildProviderModel, type ProviderModel } from "../../src/schema-translate/index.js";
import type { FunctionParameter, ProviderSchema } from "../../src/terraform/types.js";
import { B, N, S, block, comp, list, map, nested, opt, provider, req } from "./tf-schema.js";

const param = (name: string): FunctionParameter => ({ name, type: S, allowNullValue: false, allowUnknownValues: false, description: "", descriptionKind: "plain" });

/** `ex_thing` (every property shape), `ex_lookup` (data source), `ex_secret` (ephemeral), `parse`/`join2` (functions). */
export function exampleModel(): ProviderModel {
  return buildProviderModel(exampleSchema(), { packageName: "ex", packageVersion: "2.1.0" });
}

/** The Terraform schema of exampleModel(). */
export function exampleSchema(): ProviderSchema {
  return provider({
    config: block([opt("endpoint", S)], [nested("proxy", "list", block([opt("url", S)]), 0, 1)]),
    resources: {
      ex_thing: block(
        [req("name", S), opt("size", N), opt("enabled", B), opt("tags", map(S)), opt("zones", list(S)), comp("result", S), comp("endpoints", list(S)), comp("labels", map(S))],
        [nested("settings", "list", block([opt("mode", S)]), 0, 1), nested("rule", "list", block([req("port", N), opt("proto", S)]))],
      ),
    },
    dataSources: { ex_lookup: block([req("key", S), comp("value", S), comp("items", list(S))], [nested("match", "list", block([comp("id", S)]))]) },
    ephemeralResources: { ex_secret: block([opt("length", N), comp("value", S, { sensitive: true })]) },
    functions: {
      parse: { parameters: [param("input")], returnType: S, summary: "", description: "", descriptionKind: "plain", deprecationMessage: "" },
      join2: { parameters: [param("a"), param("b")], returnType: S, summary: "", description: "", descriptionKind: "plain", deprecationMessage: "" },
    },
  });
}
