// bench/engine-trace.ts reads the engine's OTLP/JSON trace (one export per line): only the engine's client spans of
// pulumirpc.ResourceProvider count, times are from the first span of any kind, and a file with no spans is refused.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeEngineTrace, readEngineTrace } from "../../bench/engine-trace.js";
import { tempDir } from "../support/temp.js";

// 1.8e18 ns: past 2^53, so a conversion to number before the subtraction would lose the sub-microsecond part.
const T0 = 1_795_935_774_745_000_123n;
const span = (name: string, kind: number, startMs: number, endMs: number): object => ({
  traceId: "t",
  spanId: `${name}-${startMs}`,
  name,
  kind,
  startTimeUnixNano: String(T0 + BigInt(Math.round(startMs * 1e6))),
  endTimeUnixNano: String(T0 + BigInt(Math.round(endMs * 1e6))),
});
const exported = (service: string, spans: object[]): string =>
  JSON.stringify({ resourceSpans: [{ resource: { attributes: [{ key: "service.name", value: { stringValue: service } }] }, scopeSpans: [{ scope: { name: "x" }, spans }] }] });

describe("the engine's trace of an up", () => {
  it("summarises the engine's calls to providers by method, and nothing else", () => {
    const file = join(tempDir("engine-trace-"), "up.json");
    const lines = [
      exported("pulumi-cli", [
        span("pulumi", 1, 0, 9000),
        span("pulumirpc.ResourceProvider/Check", 3, 1000, 1010.5),
        span("pulumirpc.ResourceProvider/Check", 3, 1011, 1031),
        span("pulumirpc.ResourceProvider/Check", 3, 1032, 1034),
        // The plugin's own server span of the same call (a plugin that traces itself) is not the engine's view.
        span("pulumirpc.ResourceProvider/Check", 2, 1001, 1009),
        span("pulumirpc.ResourceMonitor/RegisterResource", 3, 900, 8000),
      ]),
      "",
      exported("pulumi-cli", [span("pulumirpc.ResourceProvider/Create", 3, 1040, 3040), span("pulumirpc.ResourceProvider/Create", 3, 1050, 8990.25)]),
    ];
    writeFileSync(file, lines.join("\n") + "\n");
    const t = readEngineTrace(file);
    expect(t.spanMs).toBeCloseTo(9000, 6);
    expect(t.methods.map((m) => m.method)).toEqual(["Create", "Check"]);
    const [create, check] = t.methods;
    expect(check).toEqual({ method: "Check", calls: 3, medianMs: 10.5, maxMs: 20, totalMs: 32.5, firstStartMs: 1000, lastEndMs: 1034 });
    expect(create!.calls).toBe(2);
    expect(create!.medianMs).toBeCloseTo((2000 + 7940.25) / 2, 6);
    expect(create!.lastEndMs).toBeCloseTo(8990.25, 6);
    expect(describeEngineTrace(t)).toEqual([
      "engine trace: 9.00 s from the first span to the last",
      "  Create: 2 calls, median 4970.1 ms, max 7940 ms, sum 9.94 s; first at 1.04 s, last done at 8.99 s",
      "  Check: 3 calls, median 10.5 ms, max 20 ms, sum 0.03 s; first at 1.00 s, last done at 1.03 s",
    ]);
  });

  it("refuses a file that holds no spans, naming the flag that writes one", () => {
    const file = join(tempDir("engine-trace-"), "empty.json");
    writeFileSync(file, "\n" + exported("pulumi-cli", []) + "\n");
    expect(() => readEngineTrace(file)).toThrow(/holds no spans: was it written by `pulumi up --otel-traces file:\/\//);
  });
});
