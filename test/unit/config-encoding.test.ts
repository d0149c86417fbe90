// Provider settings as Pulumi sends them: decodeConfig (strings of non-string settings decoded by the schema's type) and
// unknownSettings (keys the provider lacks, with the nearest real one); the e2e tests send them through the real CLI.
import { describe, expect, it } from "vitest";
import type { CtyType } from "../../src/terraform/cty/index.js";
import type { Attribute } from "../../src/terraform/types.js";
import { block, nested, opt, provider } from "../support/tf-schema.js";
import { buildProviderModel } from "../../src/schema-translate/index.js";
import { decodeConfig } from "../../src/bridge/config-encoding.js";
import { isDefaultProvider, unknownSettings } from "../../src/bridge/provider-config.js";
import { toTfObject } from "../../src/bridge/property-cty.js";
import { COMPUTED, OutputValue, Secret, type PropertyMap } from "../../src/bridge/property-value.js";
import { SECRET_SIG, SIG_KEY } from "../../src/bridge/property-value.js";

const S: CtyType = { kind: "string" };
const N: CtyType = { kind: "number" };
const B: CtyType = { kind: "bool" };
const attr = (name: string, type: CtyType, flags: Partial<Attribute> = {}): Attribute => opt(name, type, flags);

// Every kind of setting: scalars, a list, a set, a map, an object attribute, a dynamic one, a list block (tls's proxy,
// pluralized), and a one-element block flattened to an object.
const model = buildProviderModel(
  provider({
    config: block(
      [
        attr("region", S),
        attr("token", S, { sensitive: true }),
        attr("max_retries", N),
        attr("insecure", B),
        attr("zones", { kind: "list", element: S }),
        attr("ids", { kind: "set", element: N }),
        attr("default_tags", { kind: "map", element: S }),
        attr("endpoint", { kind: "object", attributes: { url: S, port: N } }),
        attr("extra", { kind: "dynamic" }),
      ],
      [
        nested("proxy", "list", block([attr("url", S), attr("from_env", B), attr("password", S, { sensitive: true })])),
        nested("assume_role", "list", block([attr("role_arn", S), attr("duration", N)]), 0, 1),
      ],
    ),
  }),
  { packageName: "acme", packageVersion: "1.0.0" },
);
const names = model.config.map((p) => p.name).sort();

const envelope = (value: unknown): Record<string, unknown> => ({ [SIG_KEY]: SECRET_SIG, value });

describe("decodeConfig", () => {
  it("the model has the settings this table assumes", () => {
    expect(names).toEqual(["assumeRole", "defaultTags", "endpoint", "extra", "ids", "insecure", "maxRetries", "proxies", "region", "token", "zones"]);
  });

  const cases: { name: string; in: PropertyMap; want: PropertyMap }[] = [
    { name: "a list block from `pulumi config set --path acme:proxies[0].url`", in: { proxies: '[{"url":"http://x:1"}]' }, want: { proxies: [{ url: "http://x:1" }] } },
    { name: "a flattened one-element block from an SDK's JSON.stringify", in: { assumeRole: '{"roleArn":"arn:a","duration":900}' }, want: { assumeRole: { roleArn: "arn:a", duration: 900 } } },
    { name: "a number", in: { maxRetries: "5" }, want: { maxRetries: 5 } },
    { name: "a number whose fraction is zeros, as Java's SDK writes a Double", in: { maxRetries: "7.0" }, want: { maxRetries: 7 } },
    { name: "a number beyond a double keeps its digits", in: { maxRetries: "12345678901234567890" }, want: { maxRetries: "12345678901234567890" } },
    { name: "a boolean", in: { insecure: "true" }, want: { insecure: true } },
    { name: "a list, a set, a map and an object", in: { zones: '["a","b"]', ids: "[1,2]", defaultTags: '{"team":"x"}', endpoint: '{"url":"u","port":80}' }, want: { zones: ["a", "b"], ids: [1, 2], defaultTags: { team: "x" }, endpoint: { url: "u", port: 80 } } },
    { name: "a string setting is never decoded, even when it looks like JSON", in: { region: '["not","a","list"]', token: "true" }, want: { region: '["not","a","list"]', token: "true" } },
    { name: "values already structured (Go, Java, YAML) pass as they are", in: { proxies: [{ url: "u" }], maxRetries: 3, insecure: false }, want: { proxies: [{ url: "u" }], maxRetries: 3, insecure: false } },
    { name: "a secret stays secret around what it encodes (`pulumi config set --secret`)", in: { proxies: new Secret('[{"url":"http://u:p@x:1"}]') }, want: { proxies: new Secret([{ url: "http://u:p@x:1" }]) } },
    { name: "a secret inside the JSON is a secret in the value", in: { proxies: JSON.stringify([{ url: "u", password: envelope("pw") }]) }, want: { proxies: [{ url: "u", password: new Secret("pw") }] } },
    { name: "an empty string is unset, as the reference writes a null setting", in: { maxRetries: "", zones: "" }, want: { maxRetries: null, zones: null } },
    { name: "unknown stays unknown", in: { proxies: COMPUTED }, want: { proxies: COMPUTED } },
    { name: "a dynamic setting: JSON when it is, the string otherwise", in: { extra: '{"a":1}' }, want: { extra: { a: 1 } } },
    { name: "a dynamic setting given a plain string", in: { extra: "plain" }, want: { extra: "plain" } },
    { name: "keys the schema lacks are left for the check to report", in: { proxy: '[{"url":"u"}]', version: "1.0.0" }, want: { proxy: '[{"url":"u"}]', version: "1.0.0" } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = decodeConfig(model.config, c.in);
      expect(got.failures).toEqual([]);
      expect(got.values).toEqual(c.want);
    });
  }

  it("a known output value is decoded inside, keeping its secretness and dependencies", () => {
    const got = decodeConfig(model.config, { zones: new OutputValue('["a"]', true, ["urn:x"]) }).values["zones"] as OutputValue;
    expect([got.value, got.secret, got.dependencies]).toEqual([["a"], true, ["urn:x"]]);
  });

  it("what it decodes converts to the Terraform value the schema wants", () => {
    const { values } = decodeConfig(model.config, { proxies: '[{"url":"http://x:1","fromEnv":false}]', assumeRole: '{"roleArn":"r"}', maxRetries: "5", insecure: "false" });
    const tf = toTfObject(model.config, values);
    expect(tf["proxy"]).toEqual([{ url: "http://x:1", from_env: false, password: null }]);
    expect(tf["assume_role"]).toEqual([{ role_arn: "r", duration: null }]);
    expect([tf["max_retries"], tf["insecure"]]).toEqual([5, false]);
  });

  it("a structured setting whose string is not JSON is a failure naming the setting, its type and the encoding, never the value", () => {
    const got = decodeConfig(model.config, { proxies: new Secret("http://user:hunter2@x:1"), zones: "a,b" });
    expect(got.failures.map((f) => f.property).sort()).toEqual(["proxies", "zones"]);
    expect(got.failures.find((f) => f.property === "zones")!.reason).toMatch(/^expected a list of a string, written as JSON .*not JSON$/);
    expect(JSON.stringify(got.failures)).not.toContain("hunter2");
    // The value is left as given: nothing is guessed.
    expect(got.values["zones"]).toBe("a,b");
  });
});

describe("unknownSettings", () => {
  const defaultUrn = "urn:pulumi:dev::p::pulumi:providers:acme::default_1_0_0";
  const explicitUrn = "urn:pulumi:dev::p::pulumi:providers:acme::mine";

  it("tells a default provider by its URN, as the reference does", () => {
    expect([isDefaultProvider(defaultUrn), isDefaultProvider("urn:pulumi:dev::p::pulumi:providers:acme::default"), isDefaultProvider(explicitUrn), isDefaultProvider("")]).toEqual([true, true, false, false]);
  });

  it("a Terraform name in stack configuration points at the Pulumi setting", () => {
    expect(unknownSettings(model, { proxy: "[]" }, defaultUrn)).toEqual([
      {
        property: "",
        reason: "`acme:proxy` is not a valid configuration key for the acme provider. Did you mean `acme:proxies`? If the key is not meant for the provider, choose a namespace other than `acme:` (`pulumi config rm acme:proxy`).",
      },
    ]);
    expect(unknownSettings(model, { max_retries: "5" }, defaultUrn)[0]!.reason).toContain("Did you mean `acme:maxRetries`?");
  });

  it("a typo within two edits gets those settings, a further one the nearest; a key far from all gets none", () => {
    expect(unknownSettings(model, { regoin: "x" }, defaultUrn)[0]!.reason).toContain("Did you mean `acme:region`?");
    expect(unknownSettings(model, { colour: "x" }, defaultUrn)[0]!.reason).not.toContain("Did you mean");
    // Three edits away, past the reference's two, but the nearest by far.
    expect(unknownSettings(model, { maxRetry: "5" }, defaultUrn)[0]!.reason).toContain("Did you mean `acme:maxRetries`?");
  });

  it("on an explicit provider the failure is on the property", () => {
    expect(unknownSettings(model, { regoin: "x" }, explicitUrn)).toEqual([{ property: "regoin", reason: "the acme provider has no setting regoin; did you mean region?" }]);
  });

  it("a key inside a block or object setting that it lacks fails on its path with the block's nearest names, explicit provider or stack", () => {
    const want = [{ property: "proxies[1].urll", reason: "the acme provider has no setting urll in proxies[1]; did you mean url?" }];
    const proxies = [{ url: "http://a:1" }, { urll: "http://b:1" }];
    expect(unknownSettings(model, { proxies }, explicitUrn)).toEqual(want);
    expect(unknownSettings(model, { proxies }, defaultUrn)).toEqual(want);
    // A Terraform name, inside a secret, a flattened block, an object attribute; a known key at any depth passes.
    expect(unknownSettings(model, { proxies: new Secret([{ from_env: true }]), assumeRole: { roleArn: "r", durationn: 1 }, endpoint: { url: "u", prot: 1, colour: 2 } }, explicitUrn)).toEqual([
      { property: "assumeRole.durationn", reason: "the acme provider has no setting durationn in assumeRole; did you mean duration?" },
      { property: "endpoint.prot", reason: "the acme provider has no setting prot in endpoint; did you mean port?" },
      { property: "endpoint.colour", reason: "the acme provider has no setting colour in endpoint" },
      { property: "proxies[0].from_env", reason: "the acme provider has no setting from_env in proxies[0]; did you mean fromEnv?" },
    ]);
    expect(unknownSettings(model, { proxies: [{ url: "u", fromEnv: true, password: new Secret("p") }], extra: { anything: 1 }, defaultTags: { any: "x" } }, explicitUrn)).toEqual([]);
  });

  it("the engine's own keys and every real setting pass", () => {
    const all: PropertyMap = Object.fromEntries(names.map((n) => [n, null]));
    expect(unknownSettings(model, { ...all, version: "1.0.0", pluginDownloadURL: "https://x", __internal: {} }, defaultUrn)).toEqual([]);
  });
});
