// Block order and spans in HCL text, which @cdktf/hcl2json's JSON loses: it groups blocks by type and sorts the
// types. The case that needs it is provider_installation, whose methods Terraform consults in file order (the
// earliest method that offers a version supplies its package), so `network_mirror { } direct { }` and
// `direct { } network_mirror { }` install from different places; the spans also let cliconfig.ts blank out
// dev_overrides, whose HCL 1 quoted keys HCL 2 rejects.

export interface HclBlockSpan {
  type: string;
  labels: string[];
  /** Offset of the block's type keyword. */
  start: number;
  /** Offset just past its closing brace. */
  end: number;
  children: HclBlockSpan[];
}

/**
 * The nesting of blocks in HCL text, skipping strings, heredocs and comments. hcl2json groups blocks by type
 * (and sorts the types), but Terraform tries installation methods in file order, so the order comes from here.
 */
export function scanHclBlocks(text: string): HclBlockSpan[] {
  const root: HclBlockSpan = { type: "", labels: [], start: 0, end: text.length, children: [] };
  type Frame = { kind: "block"; block: HclBlockSpan } | { kind: "expr" };
  const stack: Frame[] = [{ kind: "block", block: root }];
  let stmt: { type?: string; labels: string[]; start: number; attr: boolean } = { labels: [], start: 0, attr: false };
  const fresh = (): typeof stmt => ({ labels: [], start: 0, attr: false });
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text[i]!;
    const top = stack[stack.length - 1]!;
    if (c === "#" || (c === "/" && text[i + 1] === "/")) {
      while (i < n && text[i] !== "\n") i++;
      continue;
    }
    if (c === "/" && text[i + 1] === "*") {
      const close = text.indexOf("*/", i + 2);
      i = close < 0 ? n : close + 2;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      let value = "";
      while (j < n && text[j] !== '"' && text[j] !== "\n") {
        if (text[j] === "\\") {
          value += text[j + 1] ?? "";
          j += 2;
        } else value += text[j++];
      }
      if (top.kind === "block" && stmt.type !== undefined && !stmt.attr) stmt.labels.push(value);
      i = j + 1;
      continue;
    }
    if (c === "<" && text[i + 1] === "<") {
      const m = /^<<-?([A-Za-z_][A-Za-z0-9_]*)[ \t]*\n/.exec(text.slice(i, i + 200));
      if (m) {
        const end = new RegExp(`\\n[ \\t]*${m[1]}[ \\t]*(\\n|$)`).exec(text.slice(i + m[0].length - 1));
        i = end ? i + m[0].length - 1 + end.index + end[0].length : n;
        // The heredoc's closing line ended the statement it belonged to.
        if (top.kind === "block") stmt = fresh();
        continue;
      }
    }
    if (c === "\n") {
      if (top.kind === "block") stmt = fresh();
      i++;
      continue;
    }
    if (c === "{") {
      if (top.kind === "block" && stmt.type !== undefined && !stmt.attr) {
        const b: HclBlockSpan = { type: stmt.type, labels: stmt.labels, start: stmt.start, end: -1, children: [] };
        top.block.children.push(b);
        stack.push({ kind: "block", block: b });
        stmt = fresh();
      } else stack.push({ kind: "expr" });
      i++;
      continue;
    }
    if (c === "[" || c === "(") {
      stack.push({ kind: "expr" });
      i++;
      continue;
    }
    if (c === "}" || c === "]" || c === ")") {
      if (stack.length > 1) {
        const f = stack.pop()!;
        if (f.kind === "block") {
          f.block.end = i + 1;
          stmt = fresh();
        }
      }
      i++;
      continue;
    }
    if (top.kind === "block") {
      if (c === "=") {
        stmt.attr = true;
        i++;
        continue;
      }
      const id = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(text.slice(i, i + 128));
      if (id) {
        if (!stmt.attr) {
          if (stmt.type === undefined) {
            stmt.type = id[0];
            stmt.start = i;
          } else stmt.labels.push(id[0]);
        }
        i += id[0].length;
        continue;
      }
    }
    i++;
  }
  return root.children;
}
