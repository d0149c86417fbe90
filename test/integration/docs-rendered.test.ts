// docs/performance.md and docs/architecture.md as a reader sees them: rendered by marked, their Mermaid drawings by
// mermaid from node_modules, shown in Debian's chromium (headless, driven by playwright-core); every image must load
// and every drawing must render.
import { createServer, type Server } from "node:http";
import { readFileSync, existsSync } from "node:fs";
import { extname, join, normalize } from "node:path";
import { marked } from "marked";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumMissing, findChromium } from "../support/chromium.js";
import { repoRoot } from "../support/peers.js";

const MERMAID = "/node_modules/mermaid/dist/mermaid.min.js";

/** A markdown page as HTML, with ```mermaid blocks left for mermaid to draw, as GitHub draws them. */
export function pageOf(markdown: string, title: string): string {
  const escape = (s: string): string => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
  const renderer = new marked.Renderer();
  const code = renderer.code.bind(renderer);
  renderer.code = (token) => (token.lang === "mermaid" ? `<pre class="mermaid">${escape(token.text)}</pre>\n` : code(token));
  const body = marked.parse(markdown, { renderer, async: false, gfm: true });
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escape(title)}</title><script src="${MERMAID}"></script></head><body>${body}</body></html>`;
}

/** What a reader would miss on the page: images that did not load, drawings that did not render, script errors. */
interface Seen {
  images: { src: string; naturalWidth: number }[];
  diagrams: { svg: boolean; error: string | null; kind: string | null }[];
}

const TYPES: Record<string, string> = { ".svg": "image/svg+xml", ".png": "image/png", ".js": "text/javascript", ".html": "text/html; charset=utf-8" };

/** Serves the checkout (docs/*.md as rendered pages, their images, mermaid from node_modules) on 127.0.0.1. */
function serve(extra: Map<string, string>): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    const page = extra.get(path) ?? (path.endsWith(".md.html") ? pageOf(readFileSync(join(repoRoot, path.slice(0, -5)), "utf8"), path) : undefined);
    if (page !== undefined) {
      res.writeHead(200, { "content-type": TYPES[".html"] }).end(page);
      return;
    }
    const file = join(repoRoot, normalize(path));
    if (!file.startsWith(repoRoot) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ server, base: `http://127.0.0.1:${(server.address() as { port: number }).port}` })));
}

describe.skipIf(chromiumMissing())("the docs in a browser", () => {
  let browser: Browser;
  let server: Server;
  let base: string;
  const broken = "/docs/broken.md.html";

  beforeAll(async () => {
    ({ server, base } = await serve(new Map([[broken, pageOf("![gone](img/no-such-plot.svg)\n\n```mermaid\nflowchart TD\n    a -->\n```\n", "broken")]])));
    browser = await chromium.launch({ executablePath: findChromium()!, args: ["--headless=new"] });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => server?.close(r));
  });

  /** Opens a page, waits for its images and runs mermaid over its drawings, and reports what the reader would see. */
  async function look(path: string): Promise<Seen & { pageErrors: string[] }> {
    const page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (e) => pageErrors.push(e.message));
    try {
      await page.goto(base + path, { waitUntil: "load" });
      const seen = await page.evaluate(async (): Promise<Seen> => {
        const w = window as unknown as { mermaid: { initialize(c: object): void; run(o: object): Promise<void> } };
        w.mermaid.initialize({ startOnLoad: false, securityLevel: "strict" });
        const blocks = [...document.querySelectorAll<HTMLElement>("pre.mermaid")];
        const errors = new Map<HTMLElement, string>();
        // One at a time, so a drawing that fails names itself and the others still render.
        for (const b of blocks) await w.mermaid.run({ nodes: [b] }).catch((e: unknown) => errors.set(b, String((e as Error)?.message ?? e)));
        await Promise.all([...document.images].map((i) => (i.complete ? undefined : new Promise((r) => { i.onload = r; i.onerror = r; }))));
        return {
          images: [...document.images].map((i) => ({ src: i.getAttribute("src") ?? "", naturalWidth: i.naturalWidth })),
          diagrams: blocks.map((b) => {
            const svg = b.querySelector("svg");
            return { svg: svg !== null, error: errors.get(b) ?? (svg?.getAttribute("aria-roledescription") === "error" ? "mermaid drew its error picture" : null), kind: svg?.getAttribute("aria-roledescription") ?? null };
          }),
        };
      });
      return { ...seen, pageErrors };
    } finally {
      await page.close();
    }
  }

  it("shows every plot of docs/performance.md", async () => {
    const seen = await look("/docs/performance.md.html");
    expect(seen.images.length).toBeGreaterThanOrEqual(5);
    expect(seen.images.filter((i) => i.naturalWidth === 0)).toEqual([]);
    expect(seen.pageErrors).toEqual([]);
  }, 60_000);

  it("draws every drawing of docs/architecture.md (Create, Parameterize, the layers)", async () => {
    const seen = await look("/docs/architecture.md.html");
    expect(seen.diagrams).toEqual([
      { svg: true, error: null, kind: "sequence" },
      { svg: true, error: null, kind: "sequence" },
      { svg: true, error: null, kind: "flowchart-v2" },
    ]);
    expect(seen.images.filter((i) => i.naturalWidth === 0)).toEqual([]);
    expect(seen.pageErrors).toEqual([]);
  }, 60_000);

  it("sees a missing image and a drawing that does not parse", async () => {
    const seen = await look(broken);
    expect(seen.images).toEqual([{ src: "img/no-such-plot.svg", naturalWidth: 0 }]);
    expect(seen.diagrams).toHaveLength(1);
    expect(seen.diagrams[0]!.error).toMatch(/Parse error|error/i);
  }, 60_000);
});
