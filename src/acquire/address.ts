// Terraform provider source addresses `[hostname/][namespace/]type`: parsing, defaults and normalization.
import { domainToASCII, domainToUnicode } from "node:url";
import { invalidArgument, type ParameterizeError } from "./errors.js";

/**
 * Default registry host. OpenTofu's registry mirrors the public providers and, unlike registry.terraform.io,
 * is open to any client; a bare `type` or `namespace/type` resolves there.
 */
export const DEFAULT_REGISTRY_HOST = "registry.opentofu.org";
/**
 * Default namespace for a bare `type`. Both public registries resolve bare names to `hashicorp/<type>`
 * (Terraform's legacy lookup); we apply that rule on every host instead of asking the registry.
 */
export const DEFAULT_NAMESPACE = "hashicorp";

export interface ProviderAddress {
  /** Lowercase host, with `:port` when given. */
  host: string;
  namespace: string;
  type: string;
}

/**
 * registry.terraform.io and registry.opentofu.org publish the same providers under the same names: Terraform's and
 * OpenTofu's public registries count as one (a provider in debug mode announces the address it was built with, usually
 * the former, while a bare `hashicorp/random` here means the latter; OpenTofu writes its own host into states).
 */
const PUBLIC_REGISTRIES = new Set(["registry.terraform.io", DEFAULT_REGISTRY_HOST]);

/** Whether two addresses name the same provider: the same namespace and type on the same host, the public registries as one. */
export function sameProvider(a: ProviderAddress, b: ProviderAddress): boolean {
  const sameHost = a.host === b.host || (PUBLIC_REGISTRIES.has(a.host) && PUBLIC_REGISTRIES.has(b.host));
  return sameHost && a.namespace === b.namespace && a.type === b.type;
}

/** `host/namespace/type`, the form stored in parameter values. */
export function formatAddress(a: ProviderAddress): string {
  return `${a.host}/${a.namespace}/${a.type}`;
}

// The rules are Terraform v1.16.4's (tfaddr.ParseProviderSource of terraform-registry-address v0.5.0, checked vector
// by vector in test/unit/address-vectors.test.ts): a part has no dots and no `--`, is folded to lower case by IDNA's
// mapping (so `ＡＢＣ` is `abc` and a Unicode name stays Unicode), and then holds only letters, digits and dashes, none
// at either end; a namespace may also hold underscores, none at either end (`my_org`), as private registries use.
const ASCII_DISALLOWED = { namespace: /[^a-z0-9_-]/, type: /[^a-z0-9-]/ } as const;

function parsePart(what: "namespace" | "type", given: string, source: string): string | ParameterizeError {
  if (given.includes(".")) return invalidArgument(`invalid provider ${what} "${given}" in "${source}": dots are not allowed`);
  if (given.includes("--")) return invalidArgument(`invalid provider ${what} "${given}" in "${source}": two dashes in a row are not allowed`);
  // domainToUnicode applies IDNA's mapping (case folding, compatibility forms) and returns "" for what it refuses.
  const folded = /^[\x00-\x7f]*$/.test(given) ? given.toLowerCase() : domainToUnicode(given);
  const allowed = what === "namespace" ? "letters, digits, dashes and underscores" : "letters, digits and dashes";
  if (folded === "" || ASCII_DISALLOWED[what].test(folded.replace(/[^\x00-\x7f]/g, "")) || /^[-_]|[-_]$/.test(folded)) {
    return invalidArgument(`invalid provider ${what} "${given}" in "${source}": use ${allowed}, starting and ending with a letter or digit`);
  }
  return folded;
}

// A host label: ASCII letters, digits and dashes, no dash at either end nor in the third and fourth places (IDNA's
// hyphen rule), after IDNA turns a Unicode label into its `xn--` form.
const HOST_LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

/**
 * A registry host as Terraform compares hosts (svchost.ForComparison): lower case, Unicode labels in their `xn--`
 * form, the default port 443 dropped; an error saying what is wrong with it. An address must give Unicode labels in
 * Unicode (Terraform refuses `xn--` there); a host from a URL or a `TF_TOKEN_` variable is already punycode.
 */
export function normalizeRegistryHost(given: string, punycode: "refuse" | "allow" = "refuse"): string | { error: string } {
  const bad = (why: string) => ({ error: why });
  const colon = given.indexOf(":");
  const name = colon === -1 ? given : given.slice(0, colon);
  let port = "";
  if (colon !== -1) {
    const digits = given.slice(colon + 1);
    // Terraform takes what Go's strconv.Atoi takes (`+80`, `0080`); a negative port, which it also takes, is no port.
    if (!/^\+?\d+$/.test(digits) || Number(digits) > 65535) return bad("the port must be a number from 0 to 65535");
    // 443 is the default, so `host:443` and `host` are the same registry.
    port = Number(digits) === 443 ? "" : `:${Number(digits)}`;
  }
  if (name === "") return bad("the hostname is empty");
  // A trailing dot (a fully qualified name) is kept, as in Terraform; an empty label elsewhere is refused.
  const fqdn = name.endsWith(".");
  const ascii: string[] = [];
  for (const label of (fqdn ? name.slice(0, -1) : name).split(".")) {
    if (label === "") return bad("it has an empty label (two dots in a row)");
    if (punycode === "refuse" && label.toLowerCase().startsWith("xn--")) return bad(`give the label "${label}" in Unicode, not in punycode`);
    const a = /^[\x00-\x7f]*$/.test(label) ? label.toLowerCase() : domainToASCII(label);
    if (!HOST_LABEL.test(a) || (a.slice(2, 4) === "--" && !(a.startsWith("xn--") && domainToUnicode(a) !== ""))) return bad(`"${label}" is not a valid hostname label`);
    ascii.push(a);
  }
  return `${ascii.join(".")}${fqdn ? "." : ""}${port}`;
}

function parseHost(given: string, source: string): string | ParameterizeError {
  const host = normalizeRegistryHost(given);
  return typeof host === "string" ? host : invalidArgument(`invalid registry hostname "${given}" in "${source}": ${host.error}`);
}

/** Parses `[hostname/][namespace/]type`, filling in the default host and namespace. */
export function parseProviderAddress(source: string): ProviderAddress {
  const parts = source.split("/");
  if (parts.length > 3 || parts.some((p) => p === "")) {
    throw invalidArgument(`invalid provider address "${source}": expected [hostname/][namespace/]type, e.g. hashicorp/random`);
  }
  const type = parsePart("type", parts[parts.length - 1]!, source);
  if (typeof type !== "string") throw type;
  // Terraform forbids the redundant prefix; the full binary name is a common slip worth a precise hint.
  if (type.startsWith("terraform-")) {
    const suggestion = type.startsWith("terraform-provider-") ? `; did you mean "${type.slice("terraform-provider-".length)}"?` : "";
    throw invalidArgument(
      `invalid provider type "${type}" in "${source}": provider types do not start with "terraform-"${suggestion} ` +
        `(to use a binary on disk, give its path starting with "./" or "/")`,
    );
  }
  let namespace = DEFAULT_NAMESPACE;
  if (parts.length >= 2) {
    const ns = parsePart("namespace", parts[parts.length - 2]!, source);
    if (typeof ns !== "string") throw ns;
    namespace = ns;
  }
  let host = DEFAULT_REGISTRY_HOST;
  if (parts.length === 3) {
    const h = parseHost(parts[0]!, source);
    if (typeof h !== "string") throw h;
    host = h;
  }
  return { host, namespace, type };
}
