// _index.md shows a converted example's blocks as the registry's Hugo chooser, one choosable per language.
import { describe, expect, it } from "vitest";
import { hugoChoosers } from "../../src/schema-translate/index-doc.js";

describe("hugoChoosers", () => {
  it("turns the schema's code chooser into Hugo shortcodes and leaves other code alone", () => {
    const md = "Intro\n\n<!--Start PulumiCodeChooser -->\n```typescript\nconst a = 1;\n```\n```yaml\nresources: {}\n```\n<!--End PulumiCodeChooser -->\n\n```hcl\nx = 1\n```\n";
    expect(hugoChoosers(md)).toBe(
      'Intro\n\n{{< chooser language "typescript,yaml" >}}\n{{% choosable language typescript %}}\n```typescript\nconst a = 1;\n```\n{{% /choosable %}}\n{{% choosable language yaml %}}\n```yaml\nresources: {}\n```\n{{% /choosable %}}\n{{< /chooser >}}\n\n\n```hcl\nx = 1\n```\n',
    );
    expect(hugoChoosers("no chooser here")).toBe("no chooser here");
  });
});
