// Terraform diagnostics as this project reports them: split by severity, formatted, and the one "warn, then throw" rule.
import { formatPath } from "./path.js";
import type { Diagnostic } from "./types.js";

/** Diagnostics by severity, each list in the provider's order. */
export function splitDiagnostics(diags: readonly Diagnostic[]): { errors: Diagnostic[]; warnings: Diagnostic[] } {
  const errors: Diagnostic[] = [];
  const warnings: Diagnostic[] = [];
  for (const d of diags) (d.severity === "error" ? errors : warnings).push(d);
  return { errors, warnings };
}

/** The error diagnostics only; for callers that treat them as failure. */
export function errorDiagnostics(diags: readonly Diagnostic[]): Diagnostic[] {
  return splitDiagnostics(diags).errors;
}

/** One diagnostic on one line: `error: summary: detail (at path)`. */
export function formatDiagnostic(d: Diagnostic): string {
  const at = d.attribute ? ` (at ${formatPath(d.attribute)})` : "";
  return `${d.severity}: ${d.summary}${d.detail ? `: ${d.detail}` : ""}${at}`;
}

/** Diagnostics one per line. */
export function formatDiagnostics(diags: readonly Diagnostic[]): string {
  return diags.map(formatDiagnostic).join("\n");
}

/** The message of a failure: what failed, then its error diagnostics one per line. */
export function failureMessage(what: string, diags: readonly Diagnostic[]): string {
  return `${what}:\n${formatDiagnostics(errorDiagnostics(diags))}`;
}

/** A warning as logged: `context: summary: detail`. */
export function warningMessage(context: string, d: Diagnostic): string {
  return `${context}: ${d.summary}${d.detail ? `: ${d.detail}` : ""}`;
}

export interface ReportOptions {
  /** What the diagnostics are about, prefixed to each warning (a resource type, "provider configuration"). */
  context: string;
  /** Receives each warning's message. */
  warn: (message: string) => void;
}

/** Logs every warning diagnostic. */
export function reportWarnings(diags: readonly Diagnostic[], options: ReportOptions): void {
  for (const d of splitDiagnostics(diags).warnings) options.warn(warningMessage(options.context, d));
}

export interface WarnThenThrowOptions extends ReportOptions {
  /** What failed, the first line of the error. */
  failure: string;
  makeError: (message: string) => Error;
  /**
   * Runs after the warnings are logged and before errors are thrown; it may throw in their place (a deferral, whose
   * response carries errors of its own that its message replaces).
   */
  beforeErrors?: () => void;
}

/** Every RPC's rule: warnings are logged, then error diagnostics fail the operation with what failed and the errors. */
export function warnThenThrow(diags: readonly Diagnostic[], options: WarnThenThrowOptions): void {
  reportWarnings(diags, options);
  options.beforeErrors?.();
  if (errorDiagnostics(diags).length > 0) throw options.makeError(failureMessage(options.failure, diags));
}
