// The JSON syntax checker that places an error without quoting the text: it agrees with JSON.parse on what is valid,
// on random documents and on random damage to them, and its positions point at the damage.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findJsonSyntaxError } from "../../src/acquire/json-syntax.js";

const valid = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

describe("findJsonSyntaxError", () => {
  it("finds nothing in valid JSON of every shape, however it is spaced", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, 1, "\t"), (value, indent) => {
        expect(findJsonSyntaxError(JSON.stringify(value, null, indent))).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });

  it("agrees with JSON.parse on damaged documents (a character inserted, removed or replaced)", () => {
    const damaged = fc
      .tuple(fc.jsonValue().map((v) => JSON.stringify(v, null, 1)), fc.nat(), fc.constantFrom("insert", "remove", "replace"), fc.constantFrom(..."{}[],:\"\\ \n\tax01-.eE"))
      .map(([text, at, how, c]) => {
        const i = at % (text.length + 1);
        return how === "insert" ? text.slice(0, i) + c + text.slice(i) : how === "remove" ? text.slice(0, i) + text.slice(i + 1) : text.slice(0, i) + c + text.slice(i + 1);
      });
    fc.assert(
      fc.property(damaged, (text) => {
        expect(findJsonSyntaxError(text) === undefined).toBe(valid(text));
      }),
      { numRuns: 3000 },
    );
  });

  it("places the error at the offending character, 1-based, across lines", () => {
    expect(findJsonSyntaxError('{\n  "a": 1,\n  "b": tru\n}')).toEqual({
      line: 3,
      column: 8,
      problem: "a value that is not a string, number, object, array, true, false or null (strings need double quotes)",
    });
    expect(findJsonSyntaxError('{"a": [1, 2,]}')).toMatchObject({ line: 1, column: 13, problem: "a comma before ']' (JSON allows no trailing comma)" });
    expect(findJsonSyntaxError('{"a" 1}')).toMatchObject({ column: 6, problem: "a property name not followed by ':'" });
    expect(findJsonSyntaxError("{'a': 1}")).toMatchObject({ column: 2, problem: "a property name that is not in double quotes" });
    expect(findJsonSyntaxError('{"a": 1')).toMatchObject({ column: 8, problem: "the text ends inside an unclosed object" });
    expect(findJsonSyntaxError("")).toMatchObject({ line: 1, column: 1, problem: "the text ends before any value" });
    expect(findJsonSyntaxError('"\\x"')).toMatchObject({ column: 2, problem: expect.stringMatching(/^an invalid escape sequence/) });
  });

  it("scans a document nested a million levels deep without overflowing the stack", () => {
    const deep = "[".repeat(1_000_000) + "]".repeat(1_000_000);
    expect(findJsonSyntaxError(deep)).toBeUndefined();
    expect(findJsonSyntaxError(deep.slice(0, -1))).toMatchObject({ problem: "the text ends inside an unclosed array" });
  });
});
