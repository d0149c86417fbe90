// Terraform diagnostics as this project reports them: split by severity, formatted, and the one "warn, then throw" rule;
// and how a message quotes a value of any size (an id) beside them.
import { formatPath } from "./path.js";
import { boundText } from "../wire/bound.js";
import type { AttributePath, Diagnostic } from "./types.js";

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

/**
 * How the layer that knows the Pulumi names tells them (users type `stateDir`, the provider says `state_dir`): every
 * message made from a diagnostic names both.
 */
export interface DiagnosticNames {
  /** The Pulumi property path an attribute path is, when it is written otherwise (`rules[0].fromPort`). */
  path(path: AttributePath): string | undefined;
  /** The text with each attribute name it quotes followed by the Pulumi name (`state_dir (stateDir)`). */
  text(text: string): string;
}

/** Summary and detail, with the Pulumi names when known: `summary: detail`. */
function describeDiagnostic(d: Diagnostic, names: DiagnosticNames | undefined): string {
  const said = `${d.summary}${d.detail ? `: ${d.detail}` : ""}`;
  return names === undefined ? said : names.text(said);
}

/** Where a diagnostic points: ` (at tf.path)`, with the Pulumi property when it is written otherwise. */
function describeAttribute(d: Diagnostic, names: DiagnosticNames | undefined): string {
  if (!d.attribute || d.attribute.length === 0) return "";
  const tf = formatPath(d.attribute);
  const pulumi = names?.path(d.attribute);
  return pulumi === undefined || pulumi === tf ? ` (at ${tf})` : ` (at ${tf}, the Pulumi property ${pulumi})`;
}

/** One diagnostic on one line: `error: summary: detail (at path)`. */
export function formatDiagnostic(d: Diagnostic, names?: DiagnosticNames): string {
  return `${d.severity}: ${describeDiagnostic(d, names)}${describeAttribute(d, names)}`;
}

/** Diagnostics one per line. */
export function formatDiagnostics(diags: readonly Diagnostic[], names?: DiagnosticNames): string {
  return diags.map((d) => formatDiagnostic(d, names)).join("\n");
}

/** The message of a failure: what failed, then its error diagnostics one per line. */
export function failureMessage(what: string, diags: readonly Diagnostic[], names?: DiagnosticNames): string {
  return `${what}:\n${formatDiagnostics(errorDiagnostics(diags), names)}`;
}

/** A warning as logged: `context: summary: detail (at path)`. */
export function warningMessage(context: string, d: Diagnostic, names?: DiagnosticNames): string {
  return `${context}: ${describeDiagnostic(d, names)}${describeAttribute(d, names)}`;
}

export interface ReportOptions {
  /** What the diagnostics are about, prefixed to each warning (a resource type, "provider configuration"). */
  context: string;
  /** Receives each warning's message. */
  warn: (message: string) => void;
  /** The Pulumi names of what the diagnostics point at. */
  names?: DiagnosticNames;
}

/** Logs every warning diagnostic. */
export function reportWarnings(diags: readonly Diagnostic[], options: ReportOptions): void {
  for (const d of splitDiagnostics(diags).warnings) options.warn(warningMessage(options.context, d, options.names));
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
  if (errorDiagnostics(diags).length > 0) throw options.makeError(failureMessage(options.failure, diags, options.names));
}

/** The most characters of a value (an id, an import argument) that a message quotes whole. */
export const MAX_QUOTED_VALUE_CHARS = 200;

/**
 * A value as a message quotes it: whole up to MAX_QUOTED_VALUE_CHARS, else its start and end around a count, so that an
 * id of megabytes leaves room in the message for the provider's diagnostics after it.
 */
export function shownValue(value: string): string {
  return boundText(value, MAX_QUOTED_VALUE_CHARS);
}
