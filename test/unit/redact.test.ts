// URLs as messages show them: proxy and mirror passwords masked by redactUrl, and by redactText in the error types
// and event lines every acquisition message passes through; the credentials kept for the request itself.
import { describe, expect, it } from "vitest";
import { ParameterizeError } from "../../src/acquire/errors.js";
import { classifyFetchError, HttpFailure } from "../../src/acquire/http.js";
import { proxySettings, withoutUserinfo } from "../../src/acquire/proxy.js";
import { redactText, redactUrl } from "../../src/acquire/redact.js";

describe("redactUrl", () => {
  it.each([
    ["http://alice:PASS@127.0.0.1:3128/", "http://alice:***@127.0.0.1:3128/"],
    // A password holding @, raw or escaped: the last @ ends the userinfo either way.
    ["http://alice:p@ss@proxy.example:3128", "http://alice:***@proxy.example:3128/"],
    ["http://alice:p%40ss@proxy.example:3128", "http://alice:***@proxy.example:3128/"],
    // A user alone is often a token: masked whole.
    ["https://ghp_0123456789abcdef@mirror.example/", "https://***@mirror.example/"],
    ["http://:secret@proxy.example/", "http://:***@proxy.example/"],
    ["https://mirror.example/providers/", "https://mirror.example/providers/"],
    // Unparseable: everything between // and the last @ masked.
    ["http://alice:PA SS@[127.0.0.1:9/", "http://***@[127.0.0.1:9/"],
    ["http://alice:p@ss word@[bad", "http://***@[bad"],
    // No scheme: user:pass@host parses as an opaque URL of scheme "user:", with no host.
    ["alice:PASS@proxy.example:3128", "***@proxy.example:3128"],
    ["proxy.example:3128", "proxy.example:3128"],
  ])("%s → %s", (input, shown) => {
    expect(redactUrl(input)).toBe(shown);
    expect(redactUrl(input)).not.toMatch(/PASS|PA SS|p@ss|p%40ss|secret|ghp_/);
  });

  it("leaves a URL object as it was", () => {
    const u = new URL("https://bob:hunter2@mirror.example/");
    expect(redactUrl(u)).toBe("https://bob:***@mirror.example/");
    expect(u.password).toBe("hunter2");
  });
});

describe("redactText", () => {
  it("masks every URL's userinfo in free text and is idempotent", () => {
    const text = "Request cannot be constructed from a URL that includes credentials: https://bob:hunter2@mirror.example/a/index.json; proxy http://tok@p:1/ refused";
    const once = redactText(text);
    expect(once).toBe("Request cannot be constructed from a URL that includes credentials: https://bob:***@mirror.example/a/index.json; proxy http://***@p:1/ refused");
    expect(redactText(once)).toBe(once);
    expect(redactText("https://example.com/path?q=a@b mail registry@example.test")).toBe("https://example.com/path?q=a@b mail registry@example.test");
    expect(redactText("(9https://u:pw@h/) 0://u:pw@h/")).toBe("(9https://u:***@h/) 0://u:pw@h/");
  });

  it("takes linear time on hostile text (a regular expression that backtracks took 92 s on 200 KB of letters)", () => {
    const started = performance.now();
    for (const text of ["a".repeat(1_000_000), "a://".repeat(250_000), `a://${"b".repeat(1_000_000)}`]) expect(redactText(text)).toBe(text);
    expect(redactText(`x://${"@".repeat(1_000_000)}`)).toBe("x://***@");
    expect(redactText("x://u:p@h/".repeat(100_000))).toBe("x://u:***@h/".repeat(100_000));
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe("the error types every acquisition message passes through", () => {
  it("HttpFailure masks its message, advice and url, whoever built them", () => {
    const f = new HttpFailure("http", "fetching https://bob:hunter2@m.example/x answered 401", "https://bob:hunter2@m.example/x", 401, { advice: "check https://bob:hunter2@m.example/" });
    expect(f.message).toBe("fetching https://bob:***@m.example/x answered 401: check https://bob:***@m.example/");
    expect(f.url).toBe("https://bob:***@m.example/x");
    expect(f.afterAttempts(2).message).not.toContain("hunter2");
  });

  it("ParameterizeError masks its message", () => {
    expect(new ParameterizeError("failed-precondition", "could not reach network mirror https://bob:hunter2@m.example/").message).toBe(
      "could not reach network mirror https://bob:***@m.example/",
    );
  });

  it("a proxy failure names the proxy with its password masked", () => {
    const refused = classifyFetchError(new Error("Proxy response (407) !== 200 when HTTP Tunneling"), new URL("https://registry.example/"), {
      url: "http://alice:PASS@127.0.0.1:3128/",
      from: "HTTPS_PROXY",
    });
    expect(refused.message).toMatch(/^the proxy http:\/\/alice:\*\*\*@127\.0\.0\.1:3128\/ \(HTTPS_PROXY\) refused to connect to registry\.example \(HTTP 407\)/);
    const down = classifyFetchError(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }), new URL("https://registry.example/"), {
      url: "http://alice:PASS@127.0.0.1:3128/",
      from: "HTTPS_PROXY",
    });
    expect(down.message).toMatch(/^cannot reach registry\.example through the proxy http:\/\/alice:\*\*\*@127\.0\.0\.1:3128\/ \(HTTPS_PROXY; ECONNREFUSED/);
  });

  it("a proxy variable that is refused is shown masked", () => {
    expect(() => proxySettings({ HTTPS_PROXY: "http://alice:PA SS@[127.0.0.1:9/" })).toThrow(/^HTTPS_PROXY=http:\/\/\*\*\*@\[127\.0\.0\.1:9\/ is not a proxy URL/);
    expect(() => proxySettings({ HTTPS_PROXY: "socks5://alice:PASS@127.0.0.1:1080" })).toThrow(/^HTTPS_PROXY=socks5:\/\/alice:\*\*\*@127\.0\.0\.1:1080: the proxy must be/);
  });
});

describe("withoutUserinfo", () => {
  it("moves a URL's user and password into Basic credentials, as Go's client does", () => {
    const { request, basic } = withoutUserinfo(new URL("https://bob:p%40ss@mirror.example/x"));
    expect(request.href).toBe("https://mirror.example/x");
    expect(Buffer.from(basic!.replace(/^Basic /, ""), "base64").toString()).toBe("bob:p@ss");
    expect(Buffer.from(withoutUserinfo(new URL("http://alice@p:1/")).basic!.slice(6), "base64").toString()).toBe("alice:");
    expect(withoutUserinfo(new URL("https://mirror.example/")).basic).toBeUndefined();
  });
});
