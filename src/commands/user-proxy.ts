// The user's own proxy and CA settings, carried past `convert`'s registry stand-in: the first step's converter gets
// the stand-in as its proxy, and so does every plugin the Pulumi CLI starts for it (this plugin, asked for a
// provider's mappings, installs the provider from the user's mirrors), which must see the user's settings instead.
/** The variable that carries them, as JSON: each name to its value, or null where it was unset. */
export const USER_PROXY_ENV = "TF_BRIDGE_CONVERT_USER_PROXY";

/** The variables the stand-in replaces. */
export const PROXY_VARIABLES = ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy", "SSL_CERT_FILE"] as const;

/** The user's values of PROXY_VARIABLES, as USER_PROXY_ENV carries them. */
export function userProxyValue(env: NodeJS.ProcessEnv): string {
  return JSON.stringify(Object.fromEntries(PROXY_VARIABLES.map((k) => [k, env[k] ?? null])));
}

/** Puts the user's values back into `env` when this process was started under the stand-in (else leaves it alone). */
export function restoreUserProxy(env: NodeJS.ProcessEnv): void {
  const carried = env[USER_PROXY_ENV];
  if (carried === undefined) return;
  delete env[USER_PROXY_ENV];
  let values: Record<string, unknown>;
  try {
    values = JSON.parse(carried) as Record<string, unknown>;
  } catch {
    return;
  }
  for (const k of PROXY_VARIABLES) {
    const v = values[k];
    if (typeof v === "string") env[k] = v;
    else delete env[k];
  }
}
