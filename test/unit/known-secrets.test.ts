// KnownSecrets: what a provider says back (diagnostic text, log fields) with the secrets handed to it shown as [secret].
import { describe, expect, it } from "vitest";
import { KnownSecrets } from "../../src/terraform/known-secrets.js";
import { Secret } from "../../src/bridge/property-value.js";

describe("KnownSecrets", () => {
  it("leaves text alone until a secret is noted", () => {
    const s = new KnownSecrets();
    expect(s.scrubString('got: "hunter2-x"')).toBe('got: "hunter2-x"');
  });

  it("replaces a noted secret inside text, and a short one only as the whole text", () => {
    const s = new KnownSecrets();
    s.note(new Secret({ token: "hunter2-x", pin: "007", port: 8443 }));
    expect(s.scrubString('value must be one of: ["RSA"], got: "hunter2-x"')).toBe('value must be one of: ["RSA"], got: "[secret]"');
    expect(s.scrubString("007")).toBe("[secret]");
    expect(s.scrubString("agent 007 here")).toBe("agent 007 here");
  });

  it("scrubs a log line's fields: strings inside them, whole numbers, and keys", () => {
    const s = new KnownSecrets();
    s.note(["hunter2-x", 8443]);
    expect(s.scrubData({ detail: "got hunter2-x", port: 8443, other: 1, nested: [{ "hunter2-x": true }] })).toEqual({
      detail: "got [secret]",
      port: "[secret]",
      other: 1,
      nested: [{ "[secret]": true }],
    });
  });
});
