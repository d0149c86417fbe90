// The doc page parser and the repository reader on real pages: the pinned peers' tfplugindocs pages (module cache) and
// real pages of the older website layout that the reference bridge keeps in its test data.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DocsParseError, nestedBlockPath, parseDocPage, propertyItem, splitFrontMatter } from "../../src/docs/markdown.js";
import { DocsRepoError, readProviderDocs } from "../../src/docs/repo.js";
import { readDocs } from "../../src/docs/index.js";
import { peerModuleDir, referenceBridgeModuleDir } from "../support/module-docs.js";

const page = (dir: string, rel: string) => parseDocPage(readFileSync(join(dir, rel), "utf8"), rel);
const bridgeTestData = (): string => join(referenceBridgeModuleDir(), "pkg/tfgen/test_data");

const scratch: string[] = [];
afterAll(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

describe("tfplugindocs pages", () => {
  it("random_password: front matter, overview, examples, the Schema lists and the import section", () => {
    const d = page(peerModuleDir("random"), "docs/resources/password.md");
    expect(d.frontMatter["page_title"]).toBe("random_password Resource - terraform-provider-random");
    expect(d.frontMatter["description"]).toMatch(/^-> If the managed resource supports a write-only attribute/);
    expect(d.frontMatter["description"]).toContain("\nThis resource does use a cryptographic random number generator.");
    // The title is the entity's name and goes; the overview is everything up to the first section.
    expect(d.description).not.toMatch(/^# random_password/m);
    expect(d.description).toMatch(/^-> If the managed resource/);
    expect(d.description).toContain("This resource *does* use a cryptographic random number generator.");
    expect(d.description).not.toContain("tfplugindocs");
    expect(d.examples).toMatch(/^```terraform\nresource "random_password" "password" \{/);
    expect(d.properties.get("length")).toMatch(/^The length of the string desired\. .*`min_upper` \+ `min_lower`/);
    expect(d.properties.get("min_upper")).toBe("Minimum number of uppercase alphabet characters in the result. Default value is `0`.");
    expect(d.properties.get("bcrypt_hash")).toMatch(/^A bcrypt hash of the generated random string\./);
    expect(d.properties.get("result")).toBe("The generated random string.");
    expect([...d.properties.keys()].sort()).toEqual(
      ["bcrypt_hash", "id", "keepers", "length", "lower", "min_lower", "min_numeric", "min_special", "min_upper", "number", "numeric", "override_special", "result", "special", "upper"],
    );
    expect(d.import).toMatch(/^Import is supported using the following syntax:\n\n```shell\nterraform import random_password.password securepassword\n```/);
    expect(d.import).toContain("### Limitations of Import");
    expect(d.import).toContain("    ```terraform\n    resource \"random_password\" \"password\" {\n      length = 14");
  });

  it("tls_self_signed_cert: nested schema sections document the block's attributes by path", () => {
    const d = page(peerModuleDir("tls"), "docs/resources/self_signed_cert.md");
    expect(d.properties.get("subject.common_name")).toBe("Distinguished name: `CN`");
    expect(d.properties.get("subject.street_address")).toBe("Distinguished name: `STREET`");
    expect(d.properties.get("subject")).toMatch(/^The subject for which a certificate is being requested\./);
    expect(d.properties.get("subject")).not.toContain("below for nested schema");
    expect(d.properties.get("private_key_pem_wo")).toMatch(/^Write-only private key in \[PEM/);
    // Sections the parser does not know are part of the description, under their own heading.
    expect(d.description).toContain("## Automatic Renewal\n\nThis resource considers its instances");
    expect(d.description).not.toContain("nestedblock--subject");
  });

  it("time_offset: several titled examples stay under Example Usage", () => {
    const d = page(peerModuleDir("time"), "docs/resources/offset.md");
    expect(d.examples).toMatch(/^### Basic Usage\n\n```terraform\nresource "time_offset"/);
    expect(d.examples).toContain("### Multiple Offsets Usage");
    expect(d.examples).toContain("### Triggers Usage");
    expect(d.import).toContain("terraform import time_offset.example");
  });

  it("rfc3339_parse (a function): its numbered arguments, its return type's attributes, no Terraform signature", () => {
    const d = page(peerModuleDir("time"), "docs/functions/rfc3339_parse.md");
    expect(d.properties.get("timestamp")).toBe("RFC3339 timestamp string to parse");
    expect(d.properties.get("year_day")).toMatch(/^The day of the year for the timestamp/);
    expect(d.description).toMatch(/^Given an RFC3339 timestamp string/);
    expect(d.description).toContain("## Return Type");
    expect(d.description).not.toContain("rfc3339_parse(timestamp string) object");
    expect(d.examples).toContain("provider::time::rfc3339_parse(");
  });

  it("the provider's index page: overview, examples and the configuration schema", () => {
    const d = page(peerModuleDir("tls"), "docs/index.md");
    expect(d.frontMatter["page_title"]).toBe("Provider: TLS");
    expect(d.description).toMatch(/^The TLS provider provides utilities/);
    expect(d.description).toContain("## Limitations");
    expect(d.examples).toContain('provider "tls" {');
    expect(d.examples).toContain("### Configuring Proxy");
    expect(d.properties.get("proxy.from_env")).toMatch(/^When `true` the provider will discover the proxy configuration/);
  });
});

describe("pages of the older website layout", () => {
  it("azurerm_sql_firewall_rule: the argument and attribute lists, flags left out; Timeouts skipped; import kept", () => {
    const d = page(bridgeTestData(), "azurerm-sql-firewall-rule/input.md");
    expect(d.frontMatter["subcategory"]).toBe("Database");
    expect(d.description).toMatch(/^Allows you to manage an Azure SQL Firewall Rule\.\n\n-> \*\*Note:\*\*/);
    expect(d.examples).toMatch(/^```hcl\nresource "azurerm_resource_group" "example"/);
    expect(d.properties.get("start_ip_address")).toBe("The starting IP address to allow through the firewall for this rule.");
    expect(d.properties.get("name")).toBe("The name of the firewall rule. Changing this forces a new resource to be created.");
    expect(d.properties.get("id")).toBe("The SQL Firewall Rule ID.");
    // The timeouts list documents Terraform's `timeouts` block, not properties.
    expect(d.properties.has("create")).toBe(false);
    expect(d.description).not.toContain("Timeouts");
    expect(d.import).toContain("terraform import azurerm_sql_firewall_rule.rule1 /subscriptions/");
  });

  it("\"An `account_access` block supports the following:\" puts the list below the block", () => {
    const d = page(bridgeTestData(), "alternative_header.md");
    expect(d.properties.get("account_access.default_action")).toMatch(/^Specifies the default action for the account access\./);
    expect(d.properties.has("default_action")).toBe(false);
  });

  it("readProviderDocs finds website/docs/r/<name>.html.markdown without the provider prefix", () => {
    const docs = readProviderDocs(bridgeTestData(), { resources: ["aws_s3_bucket", "aws_nothing"], dataSources: [], functions: [] });
    expect(docs.resources.get("aws_s3_bucket")?.properties.get("bucket")).toMatch(/^Name of the bucket\. If omitted/);
    expect(docs.resources.get("aws_s3_bucket")?.properties.get("acl")).toMatch(/^The \[canned ACL\]/);
    expect(docs.missing).toEqual(["resource aws_nothing"]);
  });
});

describe("the repository reader", () => {
  it("reads every page the random provider has, and its index page", () => {
    const docs = readProviderDocs(peerModuleDir("random"), {
      resources: ["random_bytes", "random_id", "random_integer", "random_password", "random_pet", "random_shuffle", "random_string", "random_uuid"],
      dataSources: [],
      functions: [],
    });
    expect(docs.missing).toEqual([]);
    expect(docs.resources.size).toBe(8);
    expect(docs.ephemeralResources.size).toBe(0);
    expect(docs.provider?.description).toMatch(/^The "random" provider allows the use of randomness/);
  });

  it("reads ephemeral resources' pages from docs/ephemeral-resources, separately from the resources of the same name", () => {
    const docs = readProviderDocs(peerModuleDir("random"), { resources: ["random_password"], dataSources: [], ephemeralResources: ["random_password", "random_bytes", "random_nope"], functions: [] });
    expect(docs.missing).toEqual(["ephemeral resource random_nope"]);
    expect(docs.ephemeralResources.get("random_password")?.description).toMatch(/Generates an ephemeral password string/);
    expect(docs.resources.get("random_password")?.description).not.toMatch(/ephemeral password string/);
    expect(docs.ephemeralResources.get("random_bytes")?.properties.get("hex")).toMatch(/^The generated bytes presented in lowercase hexadecimal/);
  });

  it("names missing pages and refuses a folder with no docs", () => {
    const docs = readProviderDocs(peerModuleDir("time"), { resources: ["time_static", "time_warp"], dataSources: ["time_now"], functions: ["duration_parse", "nope"] });
    expect(docs.missing).toEqual(["resource time_warp", "data source time_now", "function nope"]);
    expect(docs.functions.get("duration_parse")?.properties.get("duration")).toBeDefined();
    const empty = mkdtempSync(join(tmpdir(), "tfbridge-nodocs-"));
    scratch.push(empty);
    expect(() => readProviderDocs(empty, { resources: [], dataSources: [], functions: [] })).toThrow(DocsRepoError);
    expect(() => readProviderDocs(empty, { resources: [], dataSources: [], functions: [] })).toThrow(/has no docs\/ or website\/docs\/ folder/);
    expect(() => readProviderDocs(join(empty, "missing"), { resources: [], dataSources: [], functions: [] })).toThrow(/is not a directory/);
  });
});

describe("reading docs for a schema", () => {
  it("warns, naming the flag, about missing pages and a repository that is gone, and never throws for them", () => {
    const warnings: string[] = [];
    const dir = peerModuleDir("time");
    const docs = readDocs({ kind: "path", dir }, dir, { resources: ["time_static", "time_warp"], dataSources: [], functions: [] }, { warn: (m) => warnings.push(m) });
    expect(docs?.resources.has("time_static")).toBe(true);
    expect(warnings).toEqual([`--upstreamRepoPath ${dir}: no doc page for 1 of 2 (resource time_warp); they keep the schema's descriptions`]);
    const gone = join(tmpdir(), "tfbridge-docs-gone");
    expect(readDocs({ kind: "path", dir: gone }, gone, { resources: [], dataSources: [], functions: [] }, { warn: (m) => warnings.push(m) })).toBeUndefined();
    expect(warnings[1]).toBe(`--upstreamRepoPath ${gone}: ${gone} is not a directory; descriptions come from the provider schema only`);
  });
});

describe("pieces", () => {
  it("front matter: block scalars, quotes, comments; an unclosed one is an error naming the page", () => {
    const { frontMatter, body } = splitFrontMatter('---\n# generated\npage_title: "a: b"\nlayout: \'x\'\ndescription: |-\n  one\n    two\n---\n# T\n');
    expect(frontMatter).toEqual({ page_title: "a: b", layout: "x", description: "one\n  two" });
    expect(body).toBe("# T\n");
    expect(splitFrontMatter("# no front matter\n").body).toBe("# no front matter\n");
    expect(() => parseDocPage("---\ntitle: x\n# never closed\n", "bad.md")).toThrow(DocsParseError);
    expect(() => parseDocPage("---\ntitle: x\n# never closed\n", "bad.md")).toThrow(/^bad\.md: the front matter .* never closed/);
  });

  it("property items in either style, and what introduces a nested block", () => {
    expect(propertyItem("`min_upper` (Number) Minimum number.")).toEqual({ name: "min_upper", doc: "Minimum number." });
    expect(propertyItem("`name` - (Required) The name.")).toEqual({ name: "name", doc: "The name." });
    expect(propertyItem("`acl` - (Optional, **Deprecated**) The ACL.")).toEqual({ name: "acl", doc: "The ACL." });
    expect(propertyItem("`rule.0.id`: the id")).toEqual({ name: "rule.id", doc: "the id" });
    expect(propertyItem("**allUsers**: anyone")).toBeUndefined();
    expect(propertyItem("`content` (String) Content.\n  Conflicts with `source`.\n    ```\n    code\n    ```")).toEqual({ name: "content", doc: "Content.\nConflicts with `source`.\n  ```\n  code\n  ```" });
    expect(nestedBlockPath("Nested Schema for `rule.match`")).toBe("rule.match");
    expect(nestedBlockPath("The `website` block supports the following:")).toBe("website");
    expect(nestedBlockPath("`server_side_encryption`")).toBe("server_side_encryption");
    expect(nestedBlockPath("advanced_security_options")).toBe("advanced_security_options");
    expect(nestedBlockPath("Required")).toBeUndefined();
  });
});
