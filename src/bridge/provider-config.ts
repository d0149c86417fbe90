// Provider configuration keys the provider does not have, told with the nearest real one, as the reference tells them.
import { distance } from "fastest-levenshtein";
import type { ProviderModel } from "../schema-translate/model.js";
import type { PropertyMap } from "./property-value.js";
import type { CheckFailure } from "./types.js";

/**
 * Keys the engine itself puts among a provider's inputs: the package version, and (from engines before `__internal`
 * held them) the download URL and a parameterized package's name and parameterization. A provider setting of the
 * same name is still checked as a setting.
 */
const ENGINE_KEYS = new Set(["version", "pluginDownloadURL", "name", "parameterization"]);

/**
 * The reference tells a default provider from an explicit one by its URN: the engine names default providers
 * `default` or `default_<version>`.
 */
export function isDefaultProvider(urn: string): boolean {
  const name = urn.slice(urn.lastIndexOf("::") + 2);
  return urn !== "" && name.startsWith("default");
}

/**
 * A failure for each key that is no setting of the provider. For stack configuration (a default provider) the reason
 * names the `pulumi config` key and where else to put a key not meant for the provider; for an explicit provider the
 * failure is on the property. Suggestions: the setting whose Terraform name the key is (`tls:proxy` is the `proxy`
 * block, `proxies` in Pulumi), then those within two edits of the key (the reference's rule), else the nearest ones
 * if they are less than half the key away.
 */
export function unknownSettings(model: ProviderModel, inputs: PropertyMap, urn: string): CheckFailure[] {
  const known = new Set(model.config.map((p) => p.name));
  const failures: CheckFailure[] = [];
  for (const key of Object.keys(inputs)) {
    if (known.has(key) || ENGINE_KEYS.has(key) || key.startsWith("__")) continue;
    const suggestions = nearestSettings(model, key);
    if (isDefaultProvider(urn)) {
      const pkg = model.name;
      const dym = suggestions.length === 0 ? "" : ` Did you mean ${suggestions.map((s) => `\`${pkg}:${s}\``).join(" or ")}?`;
      failures.push({
        property: "",
        reason:
          `\`${pkg}:${key}\` is not a valid configuration key for the ${pkg} provider.${dym} ` +
          `If the key is not meant for the provider, choose a namespace other than \`${pkg}:\` (\`pulumi config rm ${pkg}:${key}\`).`,
      });
    } else {
      const dym = suggestions.length === 0 ? "" : `; did you mean ${suggestions.join(" or ")}?`;
      failures.push({ property: key, reason: `the ${model.name} provider has no setting ${key}${dym}` });
    }
  }
  return failures;
}

function nearestSettings(model: ProviderModel, key: string): string[] {
  const byTfName = model.config.filter((p) => p.tfName === key || p.name.toLowerCase() === key.toLowerCase()).map((p) => p.name);
  if (byTfName.length > 0) return byTfName;
  const scored = model.config.map((p) => ({ name: p.name, d: distance(key, p.name) }));
  const close = scored.filter((s) => s.d <= 2).map((s) => s.name);
  if (close.length > 0) return close;
  // Past the reference's two edits (`maxRetry` is three from `maxRetries`), the nearest, while under half the key.
  const best = Math.min(...scored.map((s) => s.d));
  return best <= Math.floor(key.length / 2) ? scored.filter((s) => s.d === best).map((s) => s.name) : [];
}
