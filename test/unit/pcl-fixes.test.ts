// The PCL rewrites `convert` makes between its two steps, on PCL written as Pulumi's Terraform converter writes it.
import { describe, expect, it } from "vitest";
import { expressionEnd, fixPcl } from "../../src/commands/pcl-fixes.js";

/** A resource as the converter writes one for a `for_each` (each.key/each.value as range.key/range.value). */
const ranged = (name: string, range: string): string =>
  [`resource "${name}" "local:index/file:File" {`, "  options {", `    range = ${range}`, "  }", '  filename = "out/${range.key}.txt"', '  content  = "${range.value}\\n"', "}", ""].join("\n");

describe("fixPcl", () => {
  it("a local holding toset(var.colors) becomes a map keyed by the values, so the range keys instances by element", () => {
    const pcl = [
      'config "colors" "list(string)" {',
      '  default = ["red", "blue"]',
      "}",
      'colorSet = invoke("std:index:toset", {',
      "  input = colors",
      "}).result",
      "",
      ranged("color", "colorSet"),
    ].join("\n");
    const fixed = fixPcl(pcl);
    expect(fixed.text).toBe(pcl.replace('invoke("std:index:toset", {\n  input = colors\n}).result', "{ for entry in colors : entry => entry }"));
    expect(fixed.text).not.toContain("std:index");
    expect(fixed.notes).toEqual(["colorSet: toset(…) is a map keyed by its values (no std call), so that for_each over it keys instances by element"]);
    expect(fixed.refusals).toEqual([]);
  });

  it("a toset invoke written in the range itself, and a set(…) variable, range over a map keyed by the values", () => {
    const direct = ranged("a", 'invoke("std:index:toset", {\n      input = ["x", upper("y")]\n    }).result');
    expect(fixPcl(direct).text).toBe(ranged("a", '{ for entry in ["x", upper("y")] : entry => entry }'));
    const variable = `config "names" "set(string)" {\n}\n${ranged("b", "names")}`;
    expect(fixPcl(variable).text).toBe(`config "names" "set(string)" {\n}\n${ranged("b", "{ for entry in names : entry => entry }")}`);
    expect(fixPcl(variable).notes).toEqual(["b: for_each over a set loops over a map keyed by its values (each.key = each.value = the element), not over indexes"]);
  });

  it("a range over a local object literal becomes a map with its keys (Python would enumerate it)", () => {
    const pcl = `palette = {\n  red  = "#f00"\n  blue = "#00f"\n}\n\n${ranged("swatch", "palette")}`;
    const fixed = fixPcl(pcl);
    expect(fixed.text).toBe(`palette = {\n  red  = "#f00"\n  blue = "#00f"\n}\n\n${ranged("swatch", "{ for __key, __value in palette : __key => __value }")}`);
    expect(fixed.notes).toEqual(["swatch: for_each over palette loops over its keys, not over list positions"]);
  });

  it("leaves alone what the generators already loop over as Terraform does: count, map variables, for-objects", () => {
    const pcl = [
      'config "services" "map(number)" {',
      "}",
      'config "workers" "number" {',
      "}",
      'byName = { for s in ["a", "b"] : s => upper(s) }',
      ranged("service", "services"),
      ranged("worker", "workers"),
      ranged("literal", "3"),
      ranged("named", "byName"),
      ranged("given", '{ for entry in ["p", "q"] : entry => entry }'),
    ].join("\n");
    expect(fixPcl(pcl)).toEqual({ text: pcl, notes: [], refusals: [] });
  });

  it("refuses what the converter wrote as notImplemented, with the Terraform text", () => {
    const pcl = `resource "x" "local:index/file:File" {\n  filename = "a"\n  content  = notImplemented("templatefile(\\"t.tpl\\", {})")\n}\n`;
    expect(fixPcl(pcl).refusals).toEqual(['the Terraform expression `templatefile("t.tpl", {})` has no Pulumi equivalent the converter knows (it wrote notImplemented); rewrite it in the Terraform project or in the program']);
  });
});

describe("expressionEnd", () => {
  it("ends at the first newline outside brackets and strings, past interpolations", () => {
    const text = 'x = { a = "}\\n${f({b = 1})}" }\ny = 1';
    expect(text.slice(4, expressionEnd(text, 4))).toBe('{ a = "}\\n${f({b = 1})}" }');
  });
});
