// Terraform provider source addresses `[hostname/][namespace/]type`: parsing, defaults and normalization.
import { domainToASCII } from "node:url";
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

/** `host/namespace/type`, the form stored in parameter values. */
export function formatAddress(a: ProviderAddress): string {
  return `${a.host}/${a.namespace}/${a.type}`;
}

// Registry rules: up to 64 characters of letters, digits, dashes and underscores; starts and ends with a letter or digit.
const PART = /^[0-9A-Za-z](?:[0-9A-Za-z_-]{0,62}[0-9A-Za-z])?$/;

function parsePart(what: "namespace" | "type", given: string, source: string): string | ParameterizeError {
  if (given.includes(".")) return invalidArgument(`invalid provider ${what} "${given}" in "${source}": dots are not allowed`);
  if (!PART.test(given)) {
    return invalidArgument(
      `invalid provider ${what} "${given}" in "${source}": use 1 to 64 letters, digits, dashes and underscores, ` +
        `starting and ending with a letter or digit`,
    );
  }
  return given.toLowerCase();
}

function parseHost(given: string, source: string): string | ParameterizeError {
  const m = /^([^:]+)(?::(\d{1,5}))?$/.exec(given);
  const port = m?.[2];
  // domainToASCII applies IDNA (so Unicode hosts compare by their ASCII form) and returns "" for invalid names.
  const ascii = m ? domainToASCII(m[1]!.toLowerCase()) : "";
  if (!m || ascii === "" || !/^[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(ascii) || (port !== undefined && Number(port) > 65535)) {
    return invalidArgument(`invalid registry hostname "${given}" in "${source}"`);
  }
  return port === undefined ? ascii : `${ascii}:${port}`;
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
