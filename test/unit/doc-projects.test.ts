// The runnable projects of the user docs (test/support/doc-projects.ts) are read as a reader follows the page, and every
// page has the ones test/e2e/docs-quickstart.test.ts runs; a marker without its block, or a file leaving the project,
// is refused by name.
import { describe, expect, it } from "vitest";
import { collectProjects, commandOf, commandsOf, docProjects, filesOf, QUICKSTART_LANGUAGES, TASK_PROJECTS } from "../support/doc-projects.js";

const PAGE = [
  "# Demo",
  "<!-- project demo Pulumi.yaml -->",
  "```yaml",
  "name: demo",
  "```",
  "Some prose.",
  "<!-- project demo run -->",
  "```sh",
  "pulumi stack init dev   # a comment",
  "",
  "# a whole-line comment",
  "pulumi package add terraform-provider hashicorp/random 3.7.2",
  "```",
  "<!-- project demo src/main.go -->",
  "```go",
  "package main // #not-a-comment-for-sh",
  "```",
  "<!-- project demo run -->",
  "```sh",
  "pulumi up --yes",
  "go mod edit -droprequire=a \\",
  "            -dropreplace=a   # continued",
  "```",
  "```sh",
  "echo unmarked blocks are prose",
  "```",
].join("\n");

describe("doc projects", () => {
  it("keeps the page's order of files and commands, files verbatim, commands without comments", () => {
    const demo = collectProjects("page.md", PAGE).get("demo")!;
    expect(demo.steps).toEqual([
      { file: "Pulumi.yaml", text: "name: demo\n" },
      { run: ["pulumi stack init dev", "pulumi package add terraform-provider hashicorp/random 3.7.2"] },
      { file: "src/main.go", text: "package main // #not-a-comment-for-sh\n" },
      { run: ["pulumi up --yes", "go mod edit -droprequire=a -dropreplace=a"] },
    ]);
    expect(commandsOf(demo)).toHaveLength(4);
    expect([...filesOf(demo).keys()]).toEqual(["Pulumi.yaml", "src/main.go"]);
    expect(demo.sources).toEqual(["page.md: Pulumi.yaml", "page.md: run", "page.md: src/main.go", "page.md: run"]);
  });

  it("strips a shell comment only where sh would", () => {
    expect(commandOf("cp -r sdks/random/src/* src   # the step")).toBe("cp -r sdks/random/src/* src");
    expect(commandOf("echo a#b")).toBe("echo a#b");
    expect(commandOf("# all comment")).toBe("");
  });

  it("refuses a marker without a block, and a file outside the project", () => {
    expect(() => collectProjects("p.md", "<!-- project x a.txt -->\nprose\n")).toThrow("p.md: <!-- project x a.txt --> is not followed by a fenced code block");
    expect(() => collectProjects("p.md", "<!-- project x ../a.txt -->\n```\nx\n```\n")).toThrow("the file must stay inside the project");
    expect(() => collectProjects("p.md", "<!-- project x /etc/a -->\n```\nx\n```\n")).toThrow("the file must stay inside the project");
  });

  it("the docs have a quick start per language and each task's project: Pulumi.yaml, package add, a no-change preview, destroy", () => {
    const projects = docProjects();
    expect([...projects.keys()].sort()).toEqual([...QUICKSTART_LANGUAGES, ...TASK_PROJECTS].sort());
    for (const p of projects.values()) {
      expect(filesOf(p).has("Pulumi.yaml"), `${p.name} has Pulumi.yaml`).toBe(true);
      for (const step of [/^pulumi package add terraform-provider /, /^pulumi preview --expect-no-changes$/, /^pulumi destroy\b/]) {
        expect(commandsOf(p).some((l) => step.test(l)), `${p.name}: ${step}`).toBe(true);
      }
    }
    for (const language of QUICKSTART_LANGUAGES) {
      const run = commandsOf(projects.get(language)!);
      expect(run.filter((l) => /^pulumi package add terraform-provider /.test(l)), language).toHaveLength(2);
      expect(run.some((l) => /^pulumi up\b/.test(l)), `${language} runs pulumi up`).toBe(true);
      // Every SDK is added before the command that builds the program against it.
      const lastAdd = run.length - 1 - [...run].reverse().findIndex((l) => /^pulumi package add /.test(l));
      expect(run.findIndex((l) => /^pulumi up\b/.test(l))).toBeGreaterThan(lastAdd);
    }
    expect(commandsOf(projects.get("import-yaml")!).filter((l) => /^pulumi import\b/.test(l))).toHaveLength(2);
    // The Go quick start quotes the import path `package add` prints, which the e2e test checks against what it printed.
    expect(projects.get("go")!.steps.filter((s) => "output" in s).map((s) => ("output" in s ? s.output : ""))).toEqual([
      expect.stringContaining('You can import the SDK in your Go code with:\n\n  import (\n    "github.com/'),
    ]);
    expect(commandsOf(projects.get("upgrade-go")!).filter((l) => /^pulumi package add terraform-provider hashicorp\/random /.test(l))).toHaveLength(2);
  });

  it("every project has its own name, so all of them can be followed in one backend, and each makes its stack only if missing", () => {
    const projects = [...docProjects().values()];
    const names = projects.map((p) => /^name:\s*(\S+)/m.exec(filesOf(p).get("Pulumi.yaml") ?? "")?.[1]);
    expect(names.every((n) => n !== undefined)).toBe(true);
    expect(new Set(names).size, names.join(", ")).toBe(projects.length);
    for (const p of projects) {
      expect(commandsOf(p).filter((l) => /^pulumi stack /.test(l)), p.name).toEqual(["pulumi stack select --create dev"]);
    }
  });

  it("an output block quotes what the commands before it print", () => {
    const page = ["<!-- project x run -->", "```sh", "pulumi package add a", "```", "<!-- project x output -->", "```text", "  import (", "  )", "```"].join("\n");
    expect(collectProjects("p.md", page).get("x")!.steps).toEqual([{ run: ["pulumi package add a"] }, { output: "  import (\n  )\n" }]);
  });
});
