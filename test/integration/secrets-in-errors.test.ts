// Check and CheckConfig through the plugin's gRPC against real providers: a failure on a secret value names the property
// and the expected type but says [secret] for the value, in the response and in everything the engine is told.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineLogSink, inProcessPlugin, type Msg } from "../support/in-process-plugin.js";
import { peerPath } from "../support/peers.js";
import { fromStruct, secret, SECRET_MARK, toStruct, type Json } from "../support/reference-ops.js";

const CANARY = "hunter2-7d1c0b";
let sink: Awaited<ReturnType<typeof engineLogSink>>;
beforeAll(async () => {
  sink = await engineLogSink();
});
afterAll(() => sink?.close());

/**
 * The plugin parameterized with `peer`, its calls, and what it told the user: every failure it answered and every
 * engine log line (its own and the provider's forwarded ones). The inputs it answers hold the secrets, as secrets.
 */
async function pluginFor(peer: string): Promise<{ call: (method: string, request: Msg) => Promise<Msg>; seen: () => string; close(): Promise<void> }> {
  const p = await inProcessPlugin(sink.address);
  await p.call("Parameterize", { args: { args: [peerPath(peer)] } });
  const told: string[] = [];
  return {
    call: async (method, request) => {
      const res = await p.call(method, request);
      told.push(JSON.stringify(res["failures"] ?? []));
      return res;
    },
    seen: () => [...told, ...sink.logs.map((l) => l.message)].join("\n"),
    close: () => p.close(),
  };
}

const failures = (res: Msg): { property: string; reason: string }[] => (res["failures"] as { property: string; reason: string }[] | undefined) ?? [];

describe("Check with a secret of the wrong type (random)", () => {
  const type = "random:index/password:Password";
  const check = (news: { [k: string]: Json }): Msg => ({ urn: `urn:pulumi:dev::p::${type}::pw`, name: "pw", type, olds: toStruct({}), news: toStruct(news), randomSeed: Buffer.alloc(32, 1) });

  it("says [secret] for a secret word given for a number, and still shows a plain one", async () => {
    const p = await pluginFor("random");
    try {
      const hidden = failures(await p.call("Check", check({ length: secret(CANARY) })));
      // Named in the reason, not as the failure's property: the engine prints the value of the property a failure names.
      expect(hidden).toEqual([{ property: "", reason: "length: expected a number, got a string ([secret])" }]);
      const inList = failures(await p.call("Check", check({ length: 12, keepers: secret({ a: CANARY }), minUpper: secret([CANARY]) })));
      expect(inList).toEqual([{ property: "", reason: "minUpper: expected a number, got a list" }]);
      const shown = failures(await p.call("Check", check({ length: "twelve" })));
      expect(shown).toEqual([{ property: "length", reason: 'expected a number, got a string ("twelve")' }]);
      expect(p.seen()).toContain("twelve");
      expect(p.seen()).not.toContain(CANARY);
    } finally {
      await p.close();
    }
  });
});

describe("CheckConfig with a secret of the wrong type (tls)", () => {
  const type = "pulumi:providers:tls";
  const checkConfig = (news: { [k: string]: Json }): Msg => ({ urn: `urn:pulumi:dev::p::${type}::default`, name: "default", type, olds: toStruct({}), news: toStruct(news) });

  it("says [secret] for a secret word given for a nested boolean setting, in a secret list or as the value itself", async () => {
    const p = await pluginFor("tls");
    try {
      const want = [{ property: "", reason: "proxies[0].fromEnv: expected a boolean, got a string ([secret])" }];
      expect(failures(await p.call("CheckConfig", checkConfig({ proxies: [{ fromEnv: secret(CANARY), password: secret(CANARY) }] })))).toEqual(want);
      expect(failures(await p.call("CheckConfig", checkConfig({ proxies: secret([{ fromEnv: CANARY }]) })))).toEqual(want);
      const shown = failures(await p.call("CheckConfig", checkConfig({ proxies: [{ fromEnv: "maybe" }] })));
      expect(shown).toEqual([{ property: "", reason: 'proxies[0].fromEnv: expected a boolean, got a string ("maybe")' }]);
      expect(p.seen()).toContain("maybe");
      expect(p.seen()).not.toContain(CANARY);
    } finally {
      await p.close();
    }
  });
});

describe("a provider's own check failure that quotes the secret it refused (tls)", () => {
  it("says [secret] where the provider quoted it, and still quotes a plain value", async () => {
    const p = await pluginFor("tls");
    try {
      const type = "tls:index/privateKey:PrivateKey";
      const check = (algorithm: Json): Msg => ({ urn: `urn:pulumi:dev::p::${type}::k`, name: "k", type, olds: toStruct({}), news: toStruct({ algorithm }), randomSeed: Buffer.alloc(32, 4) });
      // tls's own validator refuses the value and names it; the plain case shows it does.
      const plain = failures(await p.call("Check", check("rsa-please")));
      expect(plain.map((f) => f.property)).toEqual(["algorithm"]);
      expect(plain[0]!.reason).toContain("rsa-please");
      const hidden = failures(await p.call("Check", check(secret(CANARY))));
      expect(hidden.map((f) => f.property)).toEqual([""]);
      expect(hidden[0]!.reason).toBe(`algorithm: ${plain[0]!.reason.replace("rsa-please", "[secret]")}`);
      expect(p.seen()).not.toContain(CANARY);
    } finally {
      await p.close();
    }
  });
});

describe("what Check and CheckConfig hand back to be stored (bridgetest)", () => {
  it("has the values of sensitive settings and attributes secret, though the program gave them plain", async () => {
    const p = await pluginFor("bridgetest");
    try {
      const providerType = "pulumi:providers:bridgetest";
      const config = await p.call("CheckConfig", {
        urn: `urn:pulumi:dev::p::${providerType}::default`, name: "default", type: providerType, olds: toStruct({}),
        news: toStruct({ stateDir: "/tmp/unused", apiToken: CANARY }),
      });
      expect(fromStruct(config["inputs"] as Msg)).toEqual({ stateDir: "/tmp/unused", apiToken: { [SECRET_MARK]: CANARY } });
      const type = "bridgetest:index/objectResource:ObjectResource";
      const checked = await p.call("Check", {
        urn: `urn:pulumi:dev::p::${type}::o`, name: "o", type, olds: toStruct({}), randomSeed: Buffer.alloc(32, 2),
        news: toStruct({ name: "o", secret: CANARY, listNesteds: [{ key: "k", value: "v" }] }),
      });
      expect(failures(checked)).toEqual([]);
      expect(fromStruct(checked["inputs"] as Msg)).toMatchObject({ name: "o", secret: { [SECRET_MARK]: CANARY }, listNesteds: [{ key: "k", value: "v" }] });
    } finally {
      await p.close();
    }
  });
});
