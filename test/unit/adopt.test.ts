// The adopt command's pure parts: reading Terraform states (real OpenTofu 1.12 output in test/golden/adopt: a
// terraform.tfstate and `tofu show -json` of the same apply), names from addresses, the merged deployment, the PCL.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AdoptedResource, AdoptionPackage } from "../../src/adopt/adopt.js";
import { servesProvider } from "../../src/adopt/adopt.js";
import { mergeAdopted } from "../../src/adopt/deployment.js";
import { pulumiName, uniqueNames, variableName } from "../../src/adopt/names.js";
import { adoptedProgram } from "../../src/adopt/pcl.js";
import { parseModules, parseTerraformState, StateFileError, type StateInstance } from "../../src/adopt/tfstate.js";
import { Secret } from "../../src/bridge/property-value.js";
import { repoRoot } from "../support/peers.js";

const golden = (name: string): unknown => JSON.parse(readFileSync(join(repoRoot, "test/golden/adopt", name), "utf8"));
const ADDRESSES = [
  "data.local_file.d",
  "local_file.f[0]",
  "local_file.f[1]",
  "local_sensitive_file.s",
  "random_password.pw",
  'random_pet.pet["a"]',
  'random_pet.pet["b c"]',
  'module.m["x"].random_id.i[0]',
];

describe("tfstate: a state file of format 4 (OpenTofu's terraform.tfstate)", () => {
  const state = parseTerraformState(golden("opentofu.tfstate"));
  const at = (a: string) => state.instances.find((i) => i.address === a)!;

  it("reads every instance with its address, module path, key and provider", () => {
    expect(state.format).toBe("state v4");
    expect(state.lacksPrivate).toBe(false);
    expect(state.instances.map((i) => i.address).sort()).toEqual([...ADDRESSES].sort());
    expect(at('module.m["x"].random_id.i[0]')).toMatchObject({ modules: [{ name: "m", key: "x" }], mode: "managed", type: "random_id", name: "i", key: 0, provider: "registry.opentofu.org/hashicorp/random" });
    expect(at('random_pet.pet["b c"]')).toMatchObject({ modules: [], key: "b c" });
    expect(at("data.local_file.d").mode).toBe("data");
  });

  it("keeps the schema version, the raw attributes and the sensitive top-level attributes", () => {
    const pw = at("random_password.pw");
    expect(pw.schemaVersion).toBe(3);
    expect(pw.sensitive).toEqual(new Set(["bcrypt_hash", "result"]));
    expect(JSON.parse(pw.attributesJson)).toMatchObject({ length: 8, special: true });
    expect(at("local_sensitive_file.s").sensitive).toEqual(new Set(["content", "content_base64"]));
  });

  it("marks tainted and deposed objects", () => {
    const doc = golden("opentofu.tfstate") as { resources: { type: string; instances: Record<string, unknown>[] }[] };
    const pet = doc.resources.find((r) => r.type === "random_pet")!;
    pet.instances[0]!["status"] = "tainted";
    pet.instances.push({ ...pet.instances[1]!, deposed: "00000001" });
    const s = parseTerraformState(doc);
    expect(s.instances.find((i) => i.address === 'random_pet.pet["a"]')!.condition).toBe("tainted");
    expect(s.instances.find((i) => i.address === 'random_pet.pet["b c"] (deposed 00000001)')!.condition).toBe("deposed");
  });

  it("keeps private data and identity", () => {
    const doc = {
      version: 4,
      terraform_version: "1.12.0",
      resources: [
        {
          mode: "managed",
          type: "x_thing",
          name: "t",
          provider: 'provider["registry.terraform.io/acme/x"].alias',
          instances: [{ schema_version: 1, attributes: { id: "1" }, private: Buffer.from("priv").toString("base64"), identity: { name: "n" }, identity_schema_version: 2 }],
        },
      ],
    };
    const [i] = parseTerraformState(doc).instances;
    expect(i).toMatchObject({ provider: "registry.terraform.io/acme/x", schemaVersion: 1, identity: { version: 2, json: '{"name":"n"}' } });
    expect(Buffer.from(i!.privateState).toString()).toBe("priv");
  });
});

describe("tfstate: `tofu show -json`", () => {
  const fromShow = parseTerraformState(golden("opentofu-show.json"));
  const fromState = parseTerraformState(golden("opentofu.tfstate"));

  it("reads the same instances, attributes, schema versions and sensitive attributes as the state file, without private data", () => {
    expect(fromShow.format).toBe("show -json");
    expect(fromShow.lacksPrivate).toBe(true);
    const pick = (i: StateInstance) => ({ address: i.address, modules: i.modules, key: i.key, mode: i.mode, type: i.type, provider: i.provider, schemaVersion: i.schemaVersion, attributes: JSON.parse(i.attributesJson) as unknown });
    const sorted = (list: StateInstance[]) => list.map(pick).sort((a, b) => a.address.localeCompare(b.address));
    expect(sorted(fromShow.instances)).toEqual(sorted(fromState.instances));
    const pw = fromShow.instances.find((i) => i.address === "random_password.pw")!;
    expect(pw.sensitive).toEqual(new Set(["bcrypt_hash", "result"]));
  });

  it("takes the module path from the module, not from the address, whose key may hold the type", () => {
    const doc = {
      format_version: "1.0",
      values: {
        root_module: {
          child_modules: [
            {
              address: 'module.a["random_id.i"]',
              resources: [{ address: 'module.a["random_id.i"].random_id.i["random_id.i"]', mode: "managed", type: "random_id", name: "i", index: "random_id.i", provider_name: "registry.terraform.io/hashicorp/random", schema_version: 0, values: { id: "x" } }],
            },
          ],
        },
      },
    };
    const [i] = parseTerraformState(doc).instances;
    expect(i).toMatchObject({ modules: [{ name: "a", key: "random_id.i" }], key: "random_id.i", name: "i" });
  });
});

describe("tfstate: what it refuses", () => {
  it("names the format it reads", () => {
    expect(() => parseTerraformState({ version: 3 })).toThrow(/format 3; only format 4 .*terraform apply -refresh-only/);
    expect(() => parseTerraformState([])).toThrow(StateFileError);
    expect(() => parseTerraformState({ serial: 1 })).toThrow(/expected "version": 4 .* or "format_version"/);
    const flat = { version: 4, resources: [{ mode: "managed", type: "a_b", name: "c", provider: "x", instances: [{ attributes_flat: { id: "1" } }] }] };
    expect(() => parseTerraformState(flat)).toThrow(/only flat attributes/);
  });

  it("parses module paths, and says which one it cannot read", () => {
    expect(parseModules('module.a.module.b[2].module.c["k \\"q\\""]')).toEqual([{ name: "a" }, { name: "b", key: 2 }, { name: "c", key: 'k "q"' }]);
    expect(() => parseModules("module.a.oops")).toThrow(/cannot read the module path "module.a.oops"/);
  });
});

describe("names", () => {
  it("joins module calls, the resource name and count or for_each keys; a key's other characters become _", () => {
    expect(pulumiName({ modules: [], name: "f", key: 0 })).toBe("f-0");
    expect(pulumiName({ modules: [{ name: "net", key: "eu west" }], name: "conf", key: 0 })).toBe("net-eu_west-conf-0");
    expect(pulumiName({ modules: [{ name: "a" }, { name: "b", key: 1 }], name: "x" })).toBe("a-b-1-x");
    expect(pulumiName({ modules: [], name: "p", key: "ünï/ç.d" })).toBe("p-_n___.d");
    expect(pulumiName({ modules: [], name: "p", key: "" })).toBe("p-_");
  });

  it("makes colliding names distinct in order, around names taken already", () => {
    const keys = ["a b", "a/b", "a_b"].map((k) => pulumiName({ modules: [], name: "p", key: k }));
    expect(uniqueNames(keys)).toEqual(["p-a_b", "p-a_b-2", "p-a_b-3"]);
    expect(uniqueNames(["x", "x"], ["x"])).toEqual(["x-2", "x-3"]);
  });

  it("makes program variables PCL accepts", () => {
    expect(variableName("local_file", "net-eu_west-conf-0")).toBe("local_file_net_eu_west_conf_0");
    expect(variableName("9x", "a")).toBe("_9x_a");
  });
});

describe("servesProvider", () => {
  it("takes Terraform's and OpenTofu's public registries as one, a local binary by its type", () => {
    const random = { kind: "registry" as const, host: "registry.terraform.io", namespace: "hashicorp", type: "random" };
    expect(servesProvider(random, "registry.opentofu.org/hashicorp/random")).toBe(true);
    expect(servesProvider(random, "hashicorp/random")).toBe(true);
    expect(servesProvider(random, "example.com/hashicorp/random")).toBe(false);
    expect(servesProvider(random, "registry.terraform.io/acme/random")).toBe(false);
    expect(servesProvider({ kind: "local", path: "/p/terraform-provider-random", type: "random" }, "registry.opentofu.org/hashicorp/random")).toBe(true);
  });
});

const pkg: AdoptionPackage = { name: "local", version: "2.5.3", value: new TextEncoder().encode('{"v":1}'), origin: { kind: "registry", host: "registry.terraform.io", namespace: "hashicorp", type: "local" }, bridge: undefined as never };
function adopted(name: string, inputs: AdoptedResource["inputs"], outputs: AdoptedResource["outputs"] = inputs): AdoptedResource {
  return { address: `local_file.${name}`, terraformType: "local_file", name, token: "local:index/file:File", variable: variableName("local_file", name), id: `id-${name}`, inputs, outputs, package: pkg };
}

describe("deployment: adopted resources merged into the stack's export", () => {
  const stackUrn = "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev";

  it("adds the stack, one default provider per package and each resource with its id, inputs, outputs and secrets", () => {
    const { deployment, added, notAdopted } = mergeAdopted({ version: 3, deployment: {} }, "dev", "proj", [
      adopted("a", { content: "x" }),
      adopted("b", { content: new Secret("pw") }, { content: new Secret("pw"), id: "id-b" }),
    ]);
    expect(notAdopted).toEqual([]);
    expect(added.map((r) => r.name)).toEqual(["a", "b"]);
    const rs = deployment.deployment.resources!;
    expect(rs.map((r) => r.urn)).toEqual([stackUrn, "urn:pulumi:dev::proj::pulumi:providers:local::default_2_5_3", "urn:pulumi:dev::proj::local:index/file:File::a", "urn:pulumi:dev::proj::local:index/file:File::b"]);
    const provider = rs[1]!;
    expect(provider.inputs).toMatchObject({ version: "2.5.3", __internal: { name: "terraform-provider", parameterization: Buffer.from('{"v":1}').toString("base64") } });
    const b = rs[3]!;
    expect(b).toMatchObject({ custom: true, id: "id-b", parent: stackUrn, provider: `${provider.urn}::${String(provider.id)}` });
    expect(b.outputs!["content"]).toEqual({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", plaintext: '"pw"' });
    expect(rs[2]!.provider).toBe(b.provider);
  });

  it("keeps what the stack has, reuses its provider, and lists a URN it has already as not adopted", () => {
    const providerUrn = "urn:pulumi:dev::proj::pulumi:providers:local::default_2_5_3";
    const existing = [
      { urn: stackUrn, custom: false, type: "pulumi:pulumi:Stack" },
      { urn: providerUrn, custom: true, id: "prov-1", type: "pulumi:providers:local" },
      { urn: "urn:pulumi:dev::proj::local:index/file:File::a", custom: true, id: "old", type: "local:index/file:File" },
    ];
    const { deployment, added, notAdopted } = mergeAdopted({ version: 3, deployment: { resources: existing } }, "dev", "proj", [adopted("a", {}), adopted("c", {})]);
    expect(added.map((r) => r.name)).toEqual(["c"]);
    expect(notAdopted).toEqual([{ address: "local_file.a", reason: expect.stringMatching(/has urn:pulumi:dev::proj::local:index\/file:File::a already .*pulumi state delete/) as unknown }]);
    const rs = deployment.deployment.resources!;
    expect(rs.slice(0, 3)).toEqual(existing);
    expect(rs[3]).toMatchObject({ urn: "urn:pulumi:dev::proj::local:index/file:File::c", provider: `${providerUrn}::prov-1` });
  });
});

describe("pcl: the adopted program", () => {
  it("sets each input, reads each sensitive value from secret configuration, and never writes it", () => {
    const { text, secrets } = adoptedProgram([adopted("a", { content: "hi ${x}", sensitiveContent: new Secret("pw"), nested: new Secret({ n: 5, ok: true, none: null }) })]);
    expect(text).not.toContain("pw");
    expect(secrets).toEqual([
      { key: "local_file_a_sensitiveContent", value: "pw" },
      { key: "local_file_a_nested_n", value: 5 },
      { key: "local_file_a_nested_ok", value: true },
    ]);
    expect(text).toContain('config local_file_a_sensitiveContent "string" {');
    expect(text).toContain('config local_file_a_nested_n "int" {');
    expect(text).toContain("  sensitiveContent = secret(local_file_a_sensitiveContent)");
    expect(text).toMatch(/nested = secret\(\{\n\s+n = local_file_a_nested_n\n\s+ok = local_file_a_nested_ok\n\s+none = null\n\s+\}\)/);
    // A template sequence stays text.
    expect(text).toContain('content = "hi $${x}"');
    expect(adoptedProgram([adopted("b", { content: "50%{y}" })]).text).toContain('content = "50%%{y}"');
    expect(text).toMatch(/package "local" \{\n {2}baseProviderName {4}= "terraform-provider"/);
  });
});
