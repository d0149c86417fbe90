// What every bridge operation does with a Terraform provider's diagnostics: warnings to the log, errors as failures.
import { errorDiagnostics, failureMessage, reportWarnings, warnThenThrow, type DiagnosticNames } from "../terraform/diagnostics.js";
import type { Diagnostic, SecretSink, TerraformProvider } from "../terraform/types.js";
import type { PropertyModel, ProviderModel } from "../schema-translate/model.js";
import { diagnosticNames, ModelNames } from "./diagnostic-names.js";
import { toPropertyPath } from "./property-cty.js";
import { isPropertyMap, OutputValue, type PropertyMap, type PropertyValue } from "./property-value.js";
import { containsSecret } from "./secrets.js";
import { formatPath, parsePath, type Path } from "../terraform/path.js";
import { BridgeError, type CheckFailure, type LogFn } from "./types.js";

const namesByProperties = new WeakMap<readonly PropertyModel[], DiagnosticNames>();

function namesOf(props: readonly PropertyModel[]): DiagnosticNames {
  let names = namesByProperties.get(props);
  if (names === undefined) namesByProperties.set(props, (names = diagnosticNames(props)));
  return names;
}

/**
 * Error diagnostics as check failures on the Pulumi property they point at, the Terraform names their text quotes
 * followed by the Pulumi ones.
 */
export function failuresFromDiagnostics(diags: readonly Diagnostic[], props: readonly PropertyModel[], names?: DiagnosticNames): CheckFailure[] {
  const errors = errorDiagnostics(diags);
  // Most checks pass: the name table (a walk of the whole schema and a regular expression) is built for a failure only.
  if (errors.length === 0) return [];
  const shown = names ?? namesOf(props);
  return errors.map((d) => ({
    property: d.attribute ? formatPath(toPropertyPath(d.attribute, props)) : "",
    reason: shown.text(d.detail ? `${d.summary}: ${d.detail}` : d.summary),
  }));
}

/**
 * The failures as the engine is to show them. The engine prints the value of the top-level property a failure names
 * (`property algorithm value {…} has a problem: …`), a secret's value included, and `{<nil>}` for a nested path
 * (`proxies[0].url`), which is no top-level property. A failure on a property whose value is or holds a secret
 * (`inputs` as check returns them, sensitive values already secret) names the property in its reason instead, so the
 * engine has no value to print; a failure on a nested path names the path and the value set there, if any, in its reason.
 */
export function failuresShownSafely(failures: readonly CheckFailure[], inputs: PropertyMap): CheckFailure[] {
  return failures.map((f) => {
    const path = parsePath(f.property);
    const top = path?.[0];
    if (path === undefined || top === undefined || !("attribute" in top)) return f;
    if (containsSecret(inputs[top.attribute])) return { property: "", reason: `${f.property}: ${f.reason}` };
    if (path.length === 1) return f;
    const shown = shownValue(valueAt(inputs, path));
    // A conversion failure already quotes the value it got.
    const value = shown === undefined || f.reason.includes(shown) ? "" : ` = ${shown}`;
    return { property: "", reason: `${f.property}${value}: ${f.reason}` };
  });
}

/** The value at `path` in `inputs` (outputs' values unwrapped), or undefined where there is none. */
function valueAt(inputs: PropertyMap, path: Path): PropertyValue | undefined {
  let v: PropertyValue | undefined = inputs;
  for (const step of path) {
    while (v instanceof OutputValue && v.known) v = v.value;
    if ("index" in step) v = Array.isArray(v) ? v[step.index] : undefined;
    else v = isPropertyMap(v) ? v["attribute" in step ? step.attribute : step.key] : undefined;
    if (v === undefined) return undefined;
  }
  return v;
}

/** A plain value as the program wrote it (JSON, cut short), or undefined for none, an unknown, a resource or an asset. */
function shownValue(v: PropertyValue | undefined): string | undefined {
  const plain = (x: PropertyValue): unknown => {
    if (x instanceof OutputValue) return x.known ? plain(x.value!) : undefined;
    if (Array.isArray(x)) return x.map(plain);
    if (isPropertyMap(x)) return Object.fromEntries(Object.entries(x).map(([k, y]) => [k, plain(y)]));
    return x === null || typeof x !== "object" ? x : undefined;
  };
  const p = v === undefined ? undefined : plain(v);
  if (p === undefined || p === null) return undefined;
  const text = JSON.stringify(p);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/** The base of the bridge's operation classes: one Terraform provider and where its diagnostics go. */
export abstract class ProviderCaller {
  /** The Pulumi names of what diagnostics point at, by the context they are reported under. */
  protected readonly names: ModelNames | undefined;

  constructor(
    readonly tf: TerraformProvider,
    protected readonly log: LogFn = () => undefined,
    model?: ProviderModel,
  ) {
    this.names = model === undefined ? undefined : new ModelNames(model);
  }

  /** Where conversions hand the program's secrets: the provider's, to scrub what it says back (and a recording's). */
  protected get secrets(): SecretSink | undefined {
    return this.tf.secretSink;
  }

  /**
   * An RPC's warnings, logged under `context` and about the resource `urn` (the engine shows them with it; without one,
   * with the stack).
   */
  protected warn(diags: readonly Diagnostic[], context: string, urn?: string): void {
    reportWarnings(diags, { context, warn: (m) => this.log("warning", m, urn), names: this.names?.for(context) });
  }

  /** An RPC's diagnostics: warnings logged as warn() does, errors fail it as `failure` (after `beforeErrors`). */
  protected warnThenThrow(diags: readonly Diagnostic[], context: string, failure: string, options: { urn?: string; beforeErrors?: () => void } = {}): void {
    const names = this.names?.for(context);
    const { urn, beforeErrors } = options;
    warnThenThrow(diags, { context, failure, warn: (m) => this.log("warning", m, urn), makeError: (m) => new BridgeError(m), beforeErrors, names });
  }

  /** The message of a failure about `context` (a Terraform type name): what failed, then its errors, Pulumi names told. */
  protected failureMessage(context: string, what: string, diags: readonly Diagnostic[]): string {
    return failureMessage(what, diags, this.names?.for(context));
  }
}
