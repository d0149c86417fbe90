// CheckConfig failures inside a provider's block, as the engine will print them (tls's `proxy` block, through the
// plugin's gRPC): the engine prints only a top-level property's value, so a failure deeper in names its path and the
// value set there in the reason; a key the block lacks gets the block's nearest names, explicit provider or stack.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineLogSink, inProcessPlugin, type Msg } from "../support/in-process-plugin.js";
import { peerPath } from "../support/peers.js";
import { toStruct, type Json } from "../support/reference-ops.js";

let sink: Awaited<ReturnType<typeof engineLogSink>>;
let tls: Awaited<ReturnType<typeof inProcessPlugin>>;
beforeAll(async () => {
  sink = await engineLogSink();
  tls = await inProcessPlugin(sink.address);
  await tls.call("Parameterize", { args: { args: [peerPath("tls")] } });
});
afterAll(async () => {
  await tls?.close();
  sink?.close();
});

const type = "pulumi:providers:tls";
const EXPLICIT = `urn:pulumi:dev::p::${type}::mine`;
const DEFAULT = `urn:pulumi:dev::p::${type}::default_4_1_0`;
const checkConfig = async (urn: string, news: { [k: string]: Json }): Promise<Msg[]> =>
  ((await tls.call("CheckConfig", { urn, name: urn.split("::").pop(), type, olds: toStruct({}), news: toStruct(news) }))["failures"] as Msg[] | undefined) ?? [];

describe("tls's proxy block in CheckConfig", () => {
  it("a provider's conflict inside the block names the path and the value that was set, not a top-level property the engine would print as {<nil>}", async () => {
    const failures = await checkConfig(EXPLICIT, { proxies: [{ url: "http://127.0.0.1:1", fromEnv: true }] });
    expect(failures.length).toBeGreaterThan(0);
    for (const f of failures) expect(f["property"]).toBe("");
    const reasons = failures.map((f) => f["reason"] as string);
    expect(reasons).toContainEqual(expect.stringMatching(/^proxies\[0\]\.url = "http:\/\/127\.0\.0\.1:1": Invalid Attribute Combination: /));
    expect(reasons).toContainEqual(expect.stringMatching(/^proxies\[0\]\.fromEnv = true: Invalid Attribute Combination: /));
  });

  it("a misspelled key of the block gets the nearest real one, on an explicit provider as from the stack's configuration", async () => {
    const want = [{ property: "", reason: 'proxies[0].urll = "http://127.0.0.1:1": the tls provider has no setting urll in proxies[0]; did you mean url?' }];
    expect(await checkConfig(EXPLICIT, { proxies: [{ urll: "http://127.0.0.1:1" }] })).toEqual(want);
    // The stack's configuration arrives JSON-encoded, as `pulumi config set --path tls:proxies[0].urll` stores it.
    expect(await checkConfig(DEFAULT, { proxies: JSON.stringify([{ urll: "http://127.0.0.1:1" }]) })).toEqual(want);
    // A top-level key was told before, explicit provider and stack alike.
    expect(await checkConfig(EXPLICIT, { proxy: [{ url: "http://127.0.0.1:1" }] })).toEqual([{ property: "proxy", reason: "the tls provider has no setting proxy; did you mean proxies?" }]);
  });

  it("a valid block passes", async () => {
    expect(await checkConfig(EXPLICIT, { proxies: [{ url: "http://127.0.0.1:1" }] })).toEqual([]);
  });
});
