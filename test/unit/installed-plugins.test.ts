// Which installed `terraform-provider` plugins a `package add` without a version would run instead of this one.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { installedVersions, shadowedWarning } from "../../src/server/installed-plugins.js";

const home = mkdtempSync(join(tmpdir(), "tfbridge-plugins-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const plugins = join(home, "plugins");
const env = { PULUMI_HOME: home };

describe("installed terraform-provider plugins", () => {
  it("reads Pulumi's plugin directories, highest version first, skipping other plugins, locks and partial installs", () => {
    expect(installedVersions(env)).toEqual([]);
    for (const d of ["resource-terraform-provider-v0.1.0", "resource-terraform-provider-v1.1.3", "resource-terraform-provider-v0.14.0", "resource-random-v4.16.0", "resource-terraform-provider-vnot-a-version"]) {
      mkdirSync(join(plugins, d), { recursive: true });
    }
    writeFileSync(join(plugins, "resource-terraform-provider-v9.9.9.lock"), "");
    writeFileSync(join(plugins, "resource-terraform-provider-v9.9.8.partial"), "");
    expect(installedVersions(env).map((p) => p.version)).toEqual(["1.1.3", "0.14.0", "0.1.0"]);
    expect(installedVersions(env)[0]!.dir).toBe(join(plugins, "resource-terraform-provider-v1.1.3"));
  });

  it("warns that a package add without a version runs the highest, and how to name this one", () => {
    const warning = shadowedWarning("0.1.0", env);
    expect(warning).toContain(`terraform-provider v1.1.3 (${join(plugins, "resource-terraform-provider-v1.1.3")}), v0.14.0 (`);
    expect(warning).toContain("runs the highest installed version (v1.1.3), not this plugin (v0.1.0)");
    expect(warning).toContain("`pulumi package add terraform-provider@0.1.0 …`");
    expect(warning).toContain("`pulumi plugin ls`");
    // This plugin the highest: nothing to say.
    expect(shadowedWarning("1.1.3", env)).toBeUndefined();
    expect(shadowedWarning("0.1.0", { PULUMI_HOME: join(home, "nowhere") })).toBeUndefined();
  });
});
