// Where an `up` spent its time, from the engine's side: reads the OpenTelemetry trace `pulumi up --otel-traces
// file://…` writes (one OTLP/JSON export per line) and summarises the engine's calls to resource providers. The engine
// calls Check inline while it walks the program's registrations, one resource after another, so Check's latency adds
// up along that walk; Create runs in the step executor, at most --parallel at a time. The same trace comes from ours and
// from the reference, so the two are compared call by call with no instrumentation of either plugin.
import { readFileSync } from "node:fs";
import { median } from "./report.js";

interface OtlpSpan {
  name: string;
  kind?: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
}

interface OtlpExport {
  resourceSpans?: { scopeSpans?: { spans?: OtlpSpan[] }[] }[];
}

/** One provider method as the engine saw it: times in ms, starts from the trace's first span. */
export interface MethodSummary {
  method: string;
  calls: number;
  medianMs: number;
  maxMs: number;
  totalMs: number;
  firstStartMs: number;
  lastEndMs: number;
}

export interface EngineTrace {
  /** From the trace's first span to its last. */
  spanMs: number;
  /** pulumirpc.ResourceProvider methods, client side (the engine's view, transport included), by total time. */
  methods: MethodSummary[];
}

/** OTLP's span kind for a client call. */
const CLIENT = 3;
const PROVIDER_SPAN = "pulumirpc.ResourceProvider/";

export function readEngineTrace(path: string): EngineTrace {
  const spans: OtlpSpan[] = [];
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const e = JSON.parse(line) as OtlpExport;
    for (const rs of e.resourceSpans ?? []) for (const ss of rs.scopeSpans ?? []) spans.push(...(ss.spans ?? []));
  }
  if (spans.length === 0) throw new Error(`${path} holds no spans: was it written by \`pulumi up --otel-traces file://${path}\`?`);
  // Nanoseconds since the epoch exceed 2^53; the first span's start is taken off as a bigint before converting.
  const t0 = spans.map((s) => BigInt(s.startTimeUnixNano)).reduce((m, x) => (x < m ? x : m));
  const ms = (ns: string): number => Number(BigInt(ns) - t0) / 1e6;
  const byMethod = new Map<string, { start: number; end: number }[]>();
  for (const s of spans) {
    if (s.kind !== CLIENT || !s.name.startsWith(PROVIDER_SPAN)) continue;
    const method = s.name.slice(PROVIDER_SPAN.length);
    const list = byMethod.get(method) ?? [];
    list.push({ start: ms(s.startTimeUnixNano), end: ms(s.endTimeUnixNano) });
    byMethod.set(method, list);
  }
  const methods = [...byMethod].map(([method, calls]): MethodSummary => {
    const d = calls.map((c) => c.end - c.start);
    return {
      method,
      calls: calls.length,
      medianMs: median(d),
      maxMs: Math.max(...d),
      totalMs: d.reduce((a, b) => a + b, 0),
      firstStartMs: Math.min(...calls.map((c) => c.start)),
      lastEndMs: Math.max(...calls.map((c) => c.end)),
    };
  });
  methods.sort((a, b) => b.totalMs - a.totalMs);
  return { spanMs: Math.max(...spans.map((s) => ms(s.endTimeUnixNano))), methods };
}

/** One line per method: calls, median and max latency, sum, and when the first started and the last ended. */
export function describeEngineTrace(t: EngineTrace): string[] {
  const s = (x: number): string => (x / 1000).toFixed(2);
  return [
    `engine trace: ${s(t.spanMs)} s from the first span to the last`,
    ...t.methods.map(
      (m) => `  ${m.method}: ${m.calls} calls, median ${m.medianMs.toFixed(1)} ms, max ${m.maxMs.toFixed(0)} ms, sum ${s(m.totalMs)} s; first at ${s(m.firstStartMs)} s, last done at ${s(m.lastEndMs)} s`,
    ),
  ];
}
