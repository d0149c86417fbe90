// Terraform actions in the provider model and the package schema: tokens in the actions module that never collide with
// data sources, functions or ephemeral resources of the same name; inputs from the configuration; `progress` out.
import { describe, expect, it } from "vitest";
import { buildProviderModel, renderPackageSchema, type ProviderModel } from "../../src/schema-translate/index.js";
import { ACTION_PROGRESS_OUTPUT, actionFunctionName, actionFunctionToken } from "../../src/schema-translate/names.js";
import type { ProviderSchema } from "../../src/terraform/types.js";
import { block, comp, nested, opt, provider, req, S, N } from "../support/tf-schema.js";

const model = (p: ProviderSchema, opts: { includes?: string[]; excludes?: string[] } = {}): ProviderModel =>
  buildProviderModel(p, { packageName: "acme", packageVersion: "1.2.3", ...opts });

const render = (m: ProviderModel): Record<string, any> =>
  renderPackageSchema(m, { bridgeVersion: "0.1.0", parameter: new Uint8Array(), source: { kind: "local", path: "/x", type: "acme" } });

const command = block([req("command", S), opt("arguments", { kind: "list", element: S }), opt("token", S, { writeOnly: true }), opt("api_key", S, { sensitive: true })], [
  nested("retry", "list", block([opt("attempts", N)]), 0, 1),
]);
const p = provider({
  resources: { acme_command: block([comp("id", S)]) },
  dataSources: { acme_command: block([comp("id", S)]) },
  ephemeralResources: { acme_command: block([comp("out", S)]) },
  actions: { acme_command: command, acme_run_script: block([req("path", S)]) },
});

describe("actions", () => {
  it("naming: the action's name in lower camel case, in the actions module", () => {
    expect(actionFunctionName("run_script")).toBe("runScript");
    expect(actionFunctionToken("local", actionFunctionName("command"))).toBe("local:actions/command:command");
  });

  it("never share a token with the resource, data source or ephemeral resource of the same name", () => {
    const m = model(p);
    expect(m.actions.get("acme_command")!.token).toBe("acme:actions/command:command");
    expect(m.actions.get("acme_run_script")!.token).toBe("acme:actions/runScript:runScript");
    expect(m.dataSources.get("acme_command")!.token).toBe("acme:index/getCommand:getCommand");
    expect(m.ephemeralResources.get("acme_command")!.token).toBe("acme:ephemeral/getCommand:getCommand");
    expect(m.resources.get("acme_command")!.token).toBe("acme:index/command:Command");
    // Nested types live in the actions module too.
    expect([...m.types.keys()].filter((t) => t.includes(":actions/"))).toEqual(["acme:actions/commandRetry:commandRetry"]);
  });

  it("render with the configuration as inputs (sensitive and write-only secret) and `progress`, not required, as the output", () => {
    const fn = render(model(p))["functions"]["acme:actions/command:command"];
    expect(Object.keys(fn.inputs.properties).sort()).toEqual(["apiKey", "arguments", "command", "retry", "token"]);
    expect(fn.inputs.required).toEqual(["command"]);
    expect(fn.inputs.properties.token.secret).toBe(true);
    expect(fn.inputs.properties.apiKey.secret).toBe(true);
    expect(fn.inputs.properties.command.secret).toBeUndefined();
    expect(Object.keys(fn.outputs.properties)).toEqual([ACTION_PROGRESS_OUTPUT]);
    expect(fn.outputs.properties[ACTION_PROGRESS_OUTPUT]).toMatchObject({ type: "array", items: { type: "string" } });
    expect(fn.outputs.required).toBeUndefined();
  });

  it("--include and --exclude take the action's Terraform name", () => {
    expect([...model(p, { includes: ["acme_run_script"] }).actions.keys()]).toEqual(["acme_run_script"]);
    expect([...model(p, { excludes: ["acme_command"] }).actions.keys()]).toEqual(["acme_run_script"]);
  });

  it("a provider gaining actions renders everything else exactly as before", () => {
    const without = render(model({ ...p, actions: new Map() }));
    const withActions = render(model(p));
    for (const token of Object.keys(withActions["functions"])) if (token.includes(":actions/")) delete withActions["functions"][token];
    for (const token of Object.keys(withActions["types"])) if (token.includes(":actions/")) delete withActions["types"][token];
    expect(withActions).toEqual(without);
  });
});
