// The giants matrix's own logic (test/support/giants-matrix.ts): which mypy errors are Pulumi's Python generator's,
// the --include slice, the YAML program it previews, and the Go build settings it takes from the environment.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { classifyMypy, goBuild, sampleResources, yamlProgram } from "../support/giants-matrix.js";

const root = mkdtempSync(join(tmpdir(), "tfbridge-mypy-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("classifyMypy", () => {
  mkdirSync(join(root, "pulumi_k"));
  writeFileSync(join(root, "pulumi_k", "get_pod.py"), "def get_pod(id, metadata):\n    __args__ = dict()\n    __args__['id'] = id\n    __args__['metadata'] = metadata\n    x: str = 1\n");

  it("counts the generator's errors once per line and keeps every other error", () => {
    const output = [
      `pulumi_k/_utilities.py:252: error: Incompatible return value type (got "X", expected "_F")  [return-value]`,
      `pulumi_k/outputs.py:10: error: Signature of "values" incompatible with supertype "dict"  [override]`,
      `pulumi_k/outputs.py:10: note:      Superclass:`,
      `pulumi_k/outputs.py:10: error: Signature of "values" incompatible with supertype "Mapping"  [override]`,
      `pulumi_k/outputs.py:20: error: Signature of "update" incompatible with supertype "MutableMapping"  [override]`,
      `pulumi_k/get_pod.py:4: error: Incompatible types in assignment (expression has type "A", target has type "str | None")  [assignment]`,
      `pulumi_k/get_pod.py:2: error: Need type annotation for "__args__" (hint: "__args__: dict[<type>, <type>] = ...")  [var-annotated]`,
      `pulumi_k/provider.py:188: error: Argument 1 to "secret" of "Output" has incompatible type "str | Output[str | None]"; expected "str | Output[str]"  [arg-type]`,
      `pulumi_k/outputs.py:40: error: Name "outputs.ElementProperties" is not defined  [name-defined]`,
      `pulumi_k/provider.py:667: error: Argument 1 to "from_input" of "Output" has incompatible type "bool | Output[bool | None]"; expected "Output[bool | None]"  [arg-type]`,
      // Not the generator's: an override of a name that is no dict method, an assignment off `__args__`, a return
      // type outside _utilities.py.
      `pulumi_k/outputs.py:30: error: Signature of "name" incompatible with supertype "Base"  [override]`,
      `pulumi_k/get_pod.py:5: error: Incompatible types in assignment (expression has type "int", variable has type "str")  [assignment]`,
      `pulumi_k/pod.py:7: error: Incompatible return value type (got "int", expected "str")  [return-value]`,
      `pulumi_k/pod.py:9: error: Name "x" is not defined  [name-defined]`,
    ].join("\n");
    const { known, other } = classifyMypy(output, root);
    expect(known).toEqual({
      "_utilities.py lift_output_func return type": 1,
      "output property shadowing dict.values": 1,
      "output property shadowing dict.update": 1,
      "__args__ typed by its first argument": 2,
      "optional secret input given to Output.secret": 1,
      "property named outputs hiding the outputs module": 1,
      "optional provider input given to Output.from_input": 1,
    });
    expect(other.map((l) => l.split(": error")[0])).toEqual(["pulumi_k/outputs.py:30", "pulumi_k/get_pod.py:5", "pulumi_k/pod.py:7", "pulumi_k/pod.py:9"]);
  });
});

describe("sampleResources", () => {
  it("spreads the slice over the sorted names, the same on every run", () => {
    const names = Array.from({ length: 10 }, (_, i) => `p_${i}`);
    expect(sampleResources(names, 3)).toEqual(["p_0", "p_3", "p_6"]);
    expect(sampleResources(names, 20)).toEqual(names);
  });
});

describe("yamlProgram", () => {
  it("declares the first resource whose required inputs can all be given a value, objects filled to their required properties", () => {
    const program = yamlProgram({
      resources: {
        "p:index/b:B": {
          requiredInputs: ["name", "count", "on", "meta", "tags"],
          inputProperties: { name: { type: "string" }, count: { type: "integer" }, on: { type: "boolean" }, meta: { $ref: "#/types/p:index%2FMeta:Meta" }, tags: { type: "array", items: { type: "string" } } },
        },
        "p:index/a:A": { requiredInputs: ["spec"], inputProperties: { spec: { $ref: "#/types/p:index%2FDeep:Deep" } } },
      },
      types: {
        "p:index/Meta:Meta": { properties: { name: { type: "string" }, labels: { type: "object" } }, required: ["name"] },
        "p:index/Deep:Deep": { properties: { deeper: { $ref: "#/types/p:index%2FDeep:Deep" } }, required: ["deeper"] },
      },
    });
    expect(program).toBe(`resources:\n  it:\n    type: p:index/b:B\n    properties: {"name":"x","count":1,"on":true,"meta":{"name":"x"},"tags":["x"]}\n`);
    expect(yamlProgram({ resources: { "p:index/a:A": { requiredInputs: ["spec"], inputProperties: {} } } })).toBeUndefined();
  });
});

describe("goBuild", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("takes GIANTS_GO_ENV's NAME=value pairs and GIANTS_GO_FLAGS's words in place of Go's own defaults", () => {
    vi.stubEnv("GIANTS_GO_ENV", " GOMEMLIMIT=6GiB  GOGC=50 ");
    vi.stubEnv("GIANTS_GO_FLAGS", "-p 1 -gcflags=-c=1");
    expect(goBuild()).toEqual({ env: { GOMEMLIMIT: "6GiB", GOGC: "50" }, flags: ["-p", "1", "-gcflags=-c=1"] });
  });

  it("keeps a single-quoted part of a GIANTS_GO_FLAGS word whole, spaces and all", () => {
    vi.stubEnv("GIANTS_GO_FLAGS", "-p 1 -gcflags='all=-N -l'");
    expect(goBuild().flags).toEqual(["-p", "1", "-gcflags=all=-N -l"]);
  });

  it("compiles with optimizations and inlining off unless told, and with Go's own flags when GIANTS_GO_FLAGS is empty", () => {
    vi.stubEnv("GIANTS_GO_FLAGS", undefined);
    expect(goBuild().flags).toEqual(["-gcflags=all=-N -l"]);
    vi.stubEnv("GIANTS_GO_FLAGS", "");
    expect(goBuild().flags).toEqual([]);
  });

  it("refuses a GIANTS_GO_ENV word that is not NAME=value, naming it", () => {
    vi.stubEnv("GIANTS_GO_ENV", "GOMEMLIMIT=6GiB 6GiB");
    expect(() => goBuild()).toThrow(/GIANTS_GO_ENV: "6GiB" is not NAME=value/);
  });
});
