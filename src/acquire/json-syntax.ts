// Where a JSON text breaks and how, in words that quote none of it: for files that hold secrets (credentials.tfrc.json),
// where JSON.parse's message would show the text around the error, and with it part of a token.

export interface JsonSyntaxError {
  /** 1-based, as editors count. */
  line: number;
  column: number;
  problem: string;
}

type Expect = "value" | "value-or-close" | "value-after-comma" | "key-or-close" | "key-after-comma" | "colon" | "comma-or-close" | "end";

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * The first syntax error in `text` by RFC 8259, or undefined when it is valid JSON. Iterative, so a document nested
 * a million levels deep is scanned like any other.
 */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const stack: ("{" | "[")[] = [];
  let expect = "value" as Expect;
  let i = 0;
  const at = (offset: number, problem: string): JsonSyntaxError => {
    const before = text.slice(0, offset);
    const line = before.split("\n").length;
    return { line, column: offset - (before.lastIndexOf("\n") + 1) + 1, problem };
  };
  const afterValue = (): void => void (expect = stack.length === 0 ? "end" : "comma-or-close");
  /** Scans the string starting at text[i] === '"'; a problem, or undefined with i past its closing quote. */
  const string = (): JsonSyntaxError | undefined => {
    const start = i++;
    for (;;) {
      if (i >= text.length) return at(start, "a string that is never closed");
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return undefined;
      }
      if (c === 0x5c) {
        const next = text[i + 1] ?? "";
        if ('"\\/bfnrt'.includes(next) && next !== "") i += 2;
        else if (next === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else return at(i, "an invalid escape sequence (a backslash not followed by one of \" \\ / b f n r t uXXXX)");
      } else if (c < 0x20) {
        return at(i, "a control character, such as a line break or tab, inside a string (write it as \\n or \\t)");
      } else i++;
    }
  };
  for (;;) {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
    if (i >= text.length) return expect === "end" ? undefined : at(i, stack.length > 0 ? `the text ends inside an unclosed ${stack.at(-1) === "{" ? "object" : "array"}` : "the text ends before any value");
    const c = text[i]!;
    const close = stack.at(-1) === "{" ? "}" : "]";
    switch (expect) {
      case "end":
        return at(i, "more text after the end of the JSON value");
      case "colon":
        if (c !== ":") return at(i, "a property name not followed by ':'");
        i++;
        expect = "value";
        continue;
      case "comma-or-close":
        if (c === ",") {
          i++;
          expect = close === "}" ? "key-after-comma" : "value-after-comma";
        } else if (c === close) {
          stack.pop();
          i++;
          afterValue();
        } else return at(i, `a missing ',' or '${close}'`);
        continue;
      case "key-or-close":
      case "key-after-comma":
        if (c === "}" && expect === "key-or-close") {
          stack.pop();
          i++;
          afterValue();
          continue;
        }
        if (c === "}") return at(i, "a comma before '}' (JSON allows no trailing comma)");
        if (c !== '"') return at(i, "a property name that is not in double quotes");
        {
          const problem = string();
          if (problem !== undefined) return problem;
        }
        expect = "colon";
        continue;
      case "value-or-close":
      case "value-after-comma":
      case "value":
        if (c === "]" && expect === "value-or-close") {
          stack.pop();
          i++;
          afterValue();
          continue;
        }
        if (c === "]" && expect === "value-after-comma") return at(i, "a comma before ']' (JSON allows no trailing comma)");
        if (c === "{" || c === "[") {
          stack.push(c);
          i++;
          expect = c === "{" ? "key-or-close" : "value-or-close";
          continue;
        }
        if (c === '"') {
          const problem = string();
          if (problem !== undefined) return problem;
          afterValue();
          continue;
        }
        if (c === "-" || (c >= "0" && c <= "9")) {
          NUMBER.lastIndex = i;
          if (!NUMBER.test(text)) return at(i, "a malformed number");
          i = NUMBER.lastIndex;
          afterValue();
          continue;
        }
        {
          const literal = ["true", "false", "null"].find((w) => text.startsWith(w, i));
          if (literal === undefined) return at(i, "a value that is not a string, number, object, array, true, false or null (strings need double quotes)");
          i += literal.length;
          afterValue();
        }
        continue;
    }
  }
}
