// Registry downloads through a real HTTP proxy (Debian's tinyproxy on 127.0.0.1): HTTPS_PROXY and its lower-case
// form with CONNECT to the loopback registry, NO_PROXY going direct, and a proxy that refuses, named in the error.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { peerPath } from "../support/peers.js";
import { acquireInChild, sandbox } from "../support/registry-child.js";
import { FakeRegistry } from "../support/registry-server.js";
import { startTinyproxy, tinyproxyMissing, type Tinyproxy } from "../support/tinyproxy.js";

describe.skipIf(tinyproxyMissing())("downloads through a proxy", () => {
  let reg: FakeRegistry;
  let proxy: Tinyproxy;
  let refusing: Tinyproxy;

  beforeAll(async () => {
    reg = await FakeRegistry.start({ providers: { "hashicorp/random": [{ version: "3.7.2" }] }, binaries: { random: peerPath("random") } });
    proxy = await startTinyproxy();
    // CONNECT only to port 443: the registry's port is refused, as a company proxy refuses what it does not know.
    refusing = await startTinyproxy({ connectPorts: [443] });
  });
  afterAll(async () => {
    await Promise.all([reg?.stop(), proxy?.stop(), refusing?.stop()]);
  });

  const connects = (p: Tinyproxy): number => (p.log().match(new RegExp(`CONNECT ${reg.host.replace(/\./g, "\\.")}`, "g")) ?? []).length;

  it.each([["HTTPS_PROXY"], ["https_proxy"]])("%s: every request tunnels through the proxy, and the provider installs", async (variable) => {
    const before = connects(proxy);
    const hitsBefore = reg.hits.length;
    const r = await acquireInChild(`${reg.host}/hashicorp/random`, "3.7.2", sandbox(reg.caFile, { [variable]: proxy.url }).env);
    expect(r, JSON.stringify(r)).toMatchObject({ ok: true, version: "3.7.2" });
    // Discovery, versions, the package, SHA256SUMS and its signature, the archive: each through the tunnel.
    expect(connects(proxy) - before).toBeGreaterThanOrEqual(1);
    expect(reg.hits.length - hitsBefore).toBeGreaterThanOrEqual(5);
  });

  it("NO_PROXY naming the registry goes direct, even with a proxy that would refuse", async () => {
    const before = connects(refusing);
    const r = await acquireInChild(`${reg.host}/hashicorp/random`, "3.7.2", sandbox(reg.caFile, { HTTPS_PROXY: refusing.url, NO_PROXY: "example.com,127.0.0.1" }).env);
    expect(r, JSON.stringify(r)).toMatchObject({ ok: true, version: "3.7.2" });
    expect(connects(refusing)).toBe(before);
  });

  it("a proxy that refuses: the error names the proxy, the variable and what to do", async () => {
    const r = await acquireInChild(`${reg.host}/hashicorp/random`, "3.7.2", sandbox(reg.caFile, { HTTPS_PROXY: refusing.url }).env);
    expect(r.ok).toBe(false);
    expect(r.message).toContain(`the proxy ${refusing.url}/ (HTTPS_PROXY) refused to connect to ${reg.host}`);
    expect(r.message).toMatch(/allows CONNECT to .*, or list the host in NO_PROXY/);
  });

  it("a proxy that is not there: the error names it", async () => {
    const r = await acquireInChild(`${reg.host}/hashicorp/random`, "3.7.2", sandbox(reg.caFile, { HTTPS_PROXY: "http://127.0.0.1:9", TF_REGISTRY_DISCOVERY_RETRY: "0" }).env);
    expect(r.ok).toBe(false);
    expect(r.message).toContain("through the proxy http://127.0.0.1:9/ (HTTPS_PROXY");
  });

  it("a proxy variable that is not a URL is refused, naming it", async () => {
    const r = await acquireInChild(`${reg.host}/hashicorp/random`, "3.7.2", sandbox(reg.caFile, { HTTPS_PROXY: "socks5://127.0.0.1:1080" }).env);
    expect(r).toMatchObject({ ok: false, kind: "invalid-argument" });
    expect(r.message).toContain("HTTPS_PROXY=socks5://127.0.0.1:1080");
  });
});
