// Checks the cty codec byte for byte against what the real go-cty wrote (test/vectors/cty, made by test/peers/ctyvectors).

import { describe, expect, it } from "vitest";
import { CtyError, decodeJson, decodeMsgpack, encodeJson, encodeMsgpack, parseType, typeJsonText, type CtyValue } from "../../src/terraform/cty/index.js";
import { diff, fromDesc, hex, loadVectors, unhex } from "./cty-support.js";

const vectors = loadVectors();

function expectSame(actual: CtyValue, expected: CtyValue): void {
  const d = diff(actual, expected);
  expect(d, d).toBeUndefined();
}

describe(`cty vectors from go-cty ${vectors.goCty} (${vectors.go})`, () => {
  it("were generated from a real go-cty release", () => {
    expect(vectors.goCty).toMatch(/^v1\.\d+\.\d+$/);
    expect(vectors.cases.length).toBeGreaterThan(100);
  });

  describe("msgpack round trips", () => {
    for (const c of vectors.cases) {
      it(c.name, () => {
        const t = parseType(c.type);
        const expected = fromDesc(c.value);
        expect(hex(encodeMsgpack(expected, t))).toBe(c.msgpack);
        expectSame(decodeMsgpack(unhex(c.msgpack), t), expected);
      });
    }
  });

  describe("JSON round trips", () => {
    for (const c of vectors.cases) {
      it(c.name, () => {
        const t = parseType(c.type);
        const value = fromDesc(c.value);
        if (c.json === undefined) {
          expect(c.jsonError).toBeDefined();
          expect(() => encodeJson(value, t)).toThrow(CtyError);
          return;
        }
        expect(encodeJson(value, t)).toBe(c.json);
        const decoded = decodeJson(c.json, t);
        expectSame(decoded, fromDesc(c.jsonDecoded));
        expect(encodeJson(decoded, t)).toBe(c.json);
      });
    }
  });

  describe("msgpack inputs go-cty reads but does not write", () => {
    for (const c of vectors.msgpackDecode) {
      it(c.name, () => {
        const t = parseType(c.type);
        if (c.error !== undefined) {
          expect(() => decodeMsgpack(unhex(c.input), t)).toThrow(CtyError);
        } else {
          const v = decodeMsgpack(unhex(c.input), t);
          expectSame(v, fromDesc(c.value));
          expect(hex(encodeMsgpack(v, t))).toBe(c.reencoded);
        }
      });
    }
  });

  describe("JSON inputs go-cty reads but does not write", () => {
    for (const c of vectors.jsonDecode) {
      it(c.name, () => {
        const t = parseType(c.type);
        if (c.error !== undefined) {
          expect(() => decodeJson(c.input, t)).toThrow(CtyError);
        } else {
          const v = decodeJson(c.input, t);
          expectSame(v, fromDesc(c.value));
          expect(encodeJson(v, t)).toBe(c.reencoded);
        }
      });
    }
  });

  it("writes type JSON exactly as go-cty's Type.MarshalJSON (seen inside dynamic values)", () => {
    for (const c of vectors.cases) {
      const json = c.json;
      if (json === undefined || !json.startsWith('{"value":')) continue;
      const t = parseType(c.type);
      if (t.kind !== "dynamic") continue;
      const typePart = json.slice(json.lastIndexOf(',"type":') + ',"type":'.length, -1);
      expect(typeJsonText(parseType(JSON.parse(typePart)))).toBe(typePart);
    }
  });
});
