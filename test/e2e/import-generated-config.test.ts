// `pulumi import` with the real CLI prints what Terraform 1.14's `plan -generate-config-out` would write: an
// httpapi_record (SDKv2, so the provider's own GenerateResourceConfig) made outside Pulumi is imported, and the code has
// no output-only attribute, no "" SDKv2 stored for an unset string, and one half of each ConflictsWith / ExactlyOneOf
// pair; with it in the program, the preview has no changes.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { e2eSandbox } from "../support/e2e-sandbox.js";
import { startHttpApi, type HttpApiServer } from "../support/httpapi.js";
import { importedResources, YamlScenario } from "../support/lifecycle.js";

const sandbox = e2eSandbox();
let api: HttpApiServer;

beforeAll(async () => {
  api = await startHttpApi();
});
afterAll(async () => {
  await api?.stop();
});

const TYPE = "httpapi:index/record:Record";

describe("pulumi import prints the configuration Terraform would generate", () => {
  it("httpapi_record: no output-only or conflicting attributes, and the program previews with no changes", async () => {
    // An item made outside Pulumi, straight through the service's API.
    const made = await fetch(`${api.url}/items`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${api.token}` },
      body: JSON.stringify({ name: "outside", description: "made outside", size: 4096, settings: { mode: "fast" }, rules: [{ port: 443, protocol: "tcp" }] }),
    });
    expect(made.status).toBe(201);
    const id = ((await made.json()) as { id: string }).id;

    const s = await YamlScenario.create(sandbox, "import-genconfig", ["httpapi"]);
    await s.ok(["config", "set", "httpapi:endpoint", api.url]);
    await s.ok(["config", "set", "--secret", "httpapi:token", api.token]);
    // A parameterized package's default provider exists once the stack has a resource of it: `pulumi import` then uses it.
    const anchor = "  anchor:\n    type: httpapi:index/item:Item\n    properties:\n      name: anchor\n";
    s.program(`resources:\n${anchor}`);
    await s.up();
    const gen = join(s.dir, "imported.yaml");
    await s.ok(["import", TYPE, "adopted", id, "--yes", "--protect=false", "--out", gen]);
    const code = readFileSync(gen, "utf8");

    // The state holds everything the provider read, the computed-only values and both halves of each pair included.
    const adopted = await s.resource("adopted");
    expect(adopted?.outputs).toMatchObject({ name: "outside", size: 4096, sizeKb: 4, mode: "fast", fast: true, label: "", revision: 1 });
    expect(adopted?.outputs?.["etag"]).toEqual(expect.any(String));
    expect((adopted?.outputs?.["ports"] as { summary: string }[])[0]?.summary).toBe("tcp/443");
    // The code holds only what a configuration sets: size (not sizeKb), fast (not mode), no label "".
    expect(adopted?.inputs).toEqual({ name: "outside", description: "made outside", size: 4096, fast: true, ports: [{ number: 443, protocol: "tcp" }] });
    for (const absent of ["etag", "revision", "summary", "sizeKb", "mode:", "label"]) expect(code, absent).not.toContain(absent);
    for (const present of ["name: outside", "description: made outside", "size: 4096", "fast: true", "number: 443"]) expect(code, present).toContain(present);

    s.program(`resources:\n${anchor}${importedResources(code)}`);
    await s.ok(["preview", "--expect-no-changes"]);
    await s.ok(["destroy", "--yes"]);
    expect(await api.items()).toEqual([]);
  }, 600_000);
});
