// HTTPS_PROXY / HTTP_PROXY / NO_PROXY as Terraform's Go client reads them, except that loopback hosts are proxied too.
import { describe, expect, it } from "vitest";
import { proxyFor, proxySettings } from "../../src/acquire/proxy.js";

describe("proxySettings", () => {
  it("none without a proxy variable; upper case before lower case; a bare host:port is http", () => {
    expect(proxySettings({ NO_PROXY: "x" })).toBeUndefined();
    expect(proxySettings({ HTTPS_PROXY: "", https_proxy: "proxy:3128" })).toEqual({ https: { url: "http://proxy:3128/", from: "https_proxy" }, noProxy: [] });
    expect(proxySettings({ HTTPS_PROXY: "http://a:1", https_proxy: "http://b:2", HTTP_PROXY: "http://c:3", no_proxy: " .Corp.example , 10.0.0.0/8 " })).toEqual({
      https: { url: "http://a:1/", from: "HTTPS_PROXY" },
      http: { url: "http://c:3/", from: "HTTP_PROXY" },
      noProxy: [".corp.example", "10.0.0.0/8"],
      noProxyFrom: "no_proxy",
    });
  });

  it("refuses what is no http(s) proxy URL, naming the variable", () => {
    expect(() => proxySettings({ HTTPS_PROXY: "socks5://p:1080" })).toThrow(/HTTPS_PROXY=socks5:\/\/p:1080: the proxy must be an http/);
    expect(() => proxySettings({ HTTP_PROXY: "http://[bad" })).toThrow(/HTTP_PROXY=http:\/\/\[bad is not a proxy URL/);
  });
});

describe("proxyFor", () => {
  const settings = (noProxy: string) => proxySettings({ HTTPS_PROXY: "http://proxy:3128", NO_PROXY: noProxy });
  it.each([
    ["https://registry.example/v1", "", true],
    ["http://registry.example/v1", "", false], // no HTTP_PROXY: plain http goes direct
    ["https://127.0.0.1:8443/", "", true], // loopback proxied too, unlike Go
    ["https://registry.example/", "*", false],
    ["https://registry.example/", "registry.example", false],
    ["https://sub.registry.example/", "registry.example", false],
    ["https://sub.registry.example/", ".registry.example", false],
    ["https://registry.example/", ".registry.example", false],
    ["https://notregistry.example/", "registry.example", true],
    ["https://a.corp.example/", "*.corp.example", false],
    ["https://10.1.2.3/", "10.0.0.0/8", false],
    ["https://11.1.2.3/", "10.0.0.0/8", true],
    ["https://127.0.0.1:8443/", "127.0.0.1", false],
    ["https://127.0.0.1:8443/", "127.0.0.1:8443", false],
    ["https://127.0.0.1:8443/", "127.0.0.1:9999", true],
    ["https://registry.example/", "registry.example:443", false],
    ["https://[::1]:8443/", "::1", false],
  ])("%s with NO_PROXY=%j: proxied %s", (url, noProxy, proxied) => {
    expect(proxyFor(new URL(url), settings(noProxy))?.url).toBe(proxied ? "http://proxy:3128/" : undefined);
  });
});
