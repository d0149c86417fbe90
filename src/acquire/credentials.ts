// Registry credentials as Terraform finds them: `TF_TOKEN_<host>` environment variables first, then `credentials` blocks.
import { normalizeRegistryHost } from "./address.js";

const PREFIX = "TF_TOKEN_";

/**
 * A host in Terraform's comparison form: lowercase, IDNA (punycode) ASCII, a `:port` kept unless it is 443.
 * Returns undefined for something that is not a host name.
 */
export function comparisonHost(host: string): string | undefined {
  const h = normalizeRegistryHost(host.trim(), "allow");
  return typeof h === "string" ? h : undefined;
}

/**
 * The environment variable Terraform reads a host's token from: `TF_TOKEN_` + the punycode host with dots as `_`
 * and hyphens as `__` (`my-registry.example.com` → `TF_TOKEN_my__registry_example_com`). A port stays as `:port`
 * (`TF_TOKEN_127_0_0_1:8443`): no encoding exists for it, so such a name is set with `env`, not a shell `export`.
 */
export function tokenEnvVarName(host: string): string {
  const h = comparisonHost(host) ?? host.toLowerCase();
  return PREFIX + h.replace(/-/g, "__").replace(/\./g, "_");
}

/** The host a `TF_TOKEN_…` variable name stands for (comparison form), undefined if it names none. */
export function hostFromTokenEnvVarName(name: string): string | undefined {
  if (!name.startsWith(PREFIX)) return undefined;
  // Terraform's decoding: "__" → "-" first, then "_" → "."; either may also be written literally.
  const raw = name.slice(PREFIX.length).replace(/__/g, "-").replace(/_/g, ".");
  return comparisonHost(raw);
}

/** Every token given through `TF_TOKEN_<host>` variables, by host. Later variables (in sorted name order) win ties. */
export function credentialsFromEnv(env: NodeJS.ProcessEnv): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of Object.keys(env).sort()) {
    const value = env[name];
    if (value === undefined || value === "") continue;
    const host = hostFromTokenEnvVarName(name);
    if (host !== undefined) out.set(host, value);
  }
  return out;
}

/** Where tokens come from, in Terraform's order of precedence. */
export interface CredentialSources {
  env: NodeJS.ProcessEnv;
  /** `credentials "<host>" { token = … }` blocks of the CLI configuration, by comparison host. */
  configured: ReadonlyMap<string, string>;
}

/** The bearer token for a host: its `TF_TOKEN_` variable, else its `credentials` block; undefined if neither. */
export function tokenForHost(host: string, sources: CredentialSources): string | undefined {
  const h = comparisonHost(host);
  if (h === undefined) return undefined;
  return credentialsFromEnv(sources.env).get(h) ?? sources.configured.get(h);
}
