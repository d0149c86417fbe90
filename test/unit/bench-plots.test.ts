// The plots of docs/performance.md are what `npm run bench:plots` makes of the checked-in benchmark JSON, byte for
// byte, and making them twice gives the same bytes.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BEGIN, END, IMG_DIR, PERFORMANCE_MD, fmt, readBenchData, renderPlots, withSection } from "../../bench/plots.js";

describe("npm run bench:plots", () => {
  it("gives the same bytes from the same JSON, and those are the checked-in SVGs and section of docs/performance.md", async () => {
    const data = readBenchData();
    const [first, second] = [await renderPlots(data), await renderPlots(data)];
    expect(second.svgs).toEqual(first.svgs);
    expect(second.section).toBe(first.section);
    expect(first.svgs.size).toBe(5);
    for (const [name, svg] of first.svgs) {
      expect(svg, `docs/img/${name}.svg: run npm run bench:plots`).toBe(readFileSync(join(IMG_DIR, `${name}.svg`), "utf8"));
      expect(svg).toMatch(/^<svg [^>]*width="\d+" height="\d+"/);
    }
    const doc = readFileSync(PERFORMANCE_MD, "utf8");
    expect(withSection(doc, first.section), "docs/performance.md's plots section: run npm run bench:plots").toBe(doc);
  }, 60_000);

  it("puts every plotted figure in a table, with the run's date, machine and load", async () => {
    const data = readBenchData();
    const { section } = await renderPlots(data);
    for (const [name, d] of data) {
      expect(section, name).toContain(`load average (1, 5, 15 min) ${d.load.start.join(" / ")}`);
      expect(section, name).toContain(`${d.machine.cores} cores`);
      expect(section, name).toContain(d.date.slice(0, 10));
    }
    // Each number a plot is drawn from is a cell of the tables, printed as the plots round it.
    const { svgs, figures } = await renderPlots(data);
    const cells = new Set(section.split("\n").filter((l) => l.startsWith("|")).flatMap((l) => l.split("|").map((c) => c.trim().replace(/ (ms|s|MiB)$/, ""))));
    for (const [name, values] of figures) {
      expect(values.length, name).toBeGreaterThan(0);
      for (const v of values) expect(cells.has(fmt(v)), `${name}: ${v} (${fmt(v)}) in a table`).toBe(true);
    }
    expect([...svgs.keys()].every((name) => section.includes(`](img/${name}.svg)`))).toBe(true);
  }, 60_000);

  it("replaces only its own section of the page", () => {
    const page = `# Performance\n\nprose\n\n${BEGIN}\nold\n${END}\n\nmore prose\n`;
    expect(withSection(page, `${BEGIN}\nnew\n${END}`)).toBe(`# Performance\n\nprose\n\n${BEGIN}\nnew\n${END}\n\nmore prose\n`);
  });
});
