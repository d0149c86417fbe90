// The explicit httpapi provider each language's provider-configuration test declares (a setting of every Terraform
// kind, the route's sensitive attribute given as a secret) and what its httpapi_settings data source echoes for it.
import { expect } from "vitest";
import type { ExportedResource } from "./e2e.js";
import { isSecretEnvelope } from "./lifecycle.js";

/** httpapi needs an endpoint to configure; getSettings never calls it. */
export const SETTINGS_ENDPOINT = "http://127.0.0.1:9";

/** The route's secret: it must be stored nowhere in the clear. */
export const ROUTE_SECRET = "hush";

/**
 * What httpapi_settings echoes for the explicit provider's settings: Terraform's names, Go's JSON (keys sorted), the
 * route's secret as its length.
 */
export const EXPLICIT_ECHO = {
  allowed_ids: ["b", "c"],
  backoff_seconds: 0.25,
  client: [{ name: "c2", weight: 4 }],
  default_headers: { "x-team": "green" },
  fallback_urls: ["http://127.0.0.1:11"],
  max_retries: 7,
  route: [{ path: "/b", secret_length: ROUTE_SECRET.length }],
  trace: true,
};

/**
 * The provider resource `explicit` as stored: its inputs decoded to their schema types (whatever the SDK sent), the
 * route's secret a secret, and nowhere in the export's text.
 */
export function expectStoredExplicitProvider(resources: ExportedResource[], exportText: string): void {
  const p = resources.find((r) => r.custom === true && r.urn.endsWith("::explicit"));
  expect(p?.type, JSON.stringify(resources.map((r) => r.urn))).toBe("pulumi:providers:httpapi");
  expect(p!.inputs).toMatchObject({
    endpoint: SETTINGS_ENDPOINT,
    maxRetries: 7,
    trace: true,
    backoffSeconds: 0.25,
    defaultHeaders: { "x-team": "green" },
    allowedIds: ["b", "c"],
    fallbackUrls: ["http://127.0.0.1:11"],
    client: { name: "c2", weight: 4 },
  });
  // The routes are a secret as a whole (an SDK that JSON-encodes them from a secret Output makes the whole string
  // secret), or each route's secret is (one that writes the secret's envelope inside the JSON).
  const routes = p!.inputs?.["routes"];
  const eachSecret = Array.isArray(routes) && routes.length > 0 && routes.every((r) => isSecretEnvelope((r as Record<string, unknown>)["secret"]));
  expect(isSecretEnvelope(routes) || eachSecret, JSON.stringify(routes)).toBe(true);
  expect(exportText).not.toContain(ROUTE_SECRET);
}
