// Autonaming through the real Pulumi CLI: a resource whose optional `name` the program leaves out gets
// `<resource name>-<7 hex>`, the engine's autonaming pattern wins over that, and an explicit name wins over both.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { e2eSandbox } from "../support/e2e-sandbox.js";
import { scratch, YamlScenario } from "../support/lifecycle.js";

const sandbox = e2eSandbox();

describe("autonaming (bridgetest_named has an optional name, bridgetest_failing a required one)", () => {
  it("names what the program leaves unnamed, follows the engine's pattern, and keeps explicit names", async () => {
    const stateDir = scratch("tfbridge-autoname-state-");
    const s = await YamlScenario.create(sandbox, "lc-autoname", ["bridgetest"]);
    await s.ok(["config", "set", "bridgetest:stateDir", stateDir]);
    s.program(
      [
        "resources:",
        "  web:",
        "    type: bridgetest:index/named:Named",
        "  fixed:",
        "    type: bridgetest:index/named:Named",
        "    properties:",
        "      name: given-by-program",
        "outputs:",
        "  web: ${web.name}",
        "  webId: ${web.id}",
        "  fixed: ${fixed.name}",
      ].join("\n"),
    );
    await s.up();
    const out = await s.outputs();
    expect(out["web"]).toMatch(/^web-[0-9a-f]{7}$/);
    expect(out["fixed"]).toBe("given-by-program");
    // The name reached the provider: it is in the object the provider wrote.
    const stored = JSON.parse(readFileSync(join(stateDir, `${String(out["webId"])}.json`), "utf8")) as { state: { name: string } };
    expect(stored.state.name).toBe(out["web"]);
    // The autoname is stable: nothing to change on the next preview.
    await s.ok(["preview", "--expect-no-changes"]);

    // The engine's autonaming configuration proposes names; the bridge takes the proposal for new resources.
    await s.ok(["config", "set", "--path", "pulumi:autonaming.pattern", "${name}-from-pattern"]);
    s.program(
      [
        "resources:",
        "  web:",
        "    type: bridgetest:index/named:Named",
        "  api:",
        "    type: bridgetest:index/named:Named",
        "outputs:",
        "  web: ${web.name}",
        "  api: ${api.name}",
      ].join("\n"),
    );
    await s.up();
    const after = await s.outputs();
    expect(after["api"]).toBe("api-from-pattern");
    // An existing resource keeps the name it has rather than being replaced to follow the new pattern.
    expect(after["web"]).toBe(out["web"]);
    await s.ok(["destroy", "--yes"]);
  }, 600_000);

  it("names a resource whose Terraform name is required (bridgetest_failing), and leaves the name to the provider when the program sets namePrefix", async () => {
    const stateDir = scratch("tfbridge-autoname-required-");
    const s = await YamlScenario.create(sandbox, "lc-autoname-req", ["bridgetest"]);
    await s.ok(["config", "set", "bridgetest:stateDir", stateDir]);
    s.program(
      [
        "resources:",
        "  job:",
        "    type: bridgetest:index/failing:Failing",
        "  prefixed:",
        "    type: bridgetest:index/named:Named",
        "    properties:",
        "      namePrefix: pre-",
        "outputs:",
        "  job: ${job.name}",
        "  prefixed: ${prefixed.name}",
        "  prefixedId: ${prefixed.id}",
      ].join("\n"),
    );
    await s.up();
    const out = await s.outputs();
    expect(out["job"]).toMatch(/^job-[0-9a-f]{7}$/);
    // An autoname would conflict with name_prefix in the provider; the provider's own naming applies instead.
    expect(out["prefixed"]).toBe(`pre-${String(out["prefixedId"])}`);
    await s.ok(["preview", "--expect-no-changes"]);
    await s.ok(["destroy", "--yes"]);
  }, 600_000);
});
