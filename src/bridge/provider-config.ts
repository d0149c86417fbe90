// Provider configuration keys the provider does not have, told with the nearest real one, as the reference tells them.
import { distance } from "fastest-levenshtein";
import type { PropertyModel, ProviderModel, TypeModel } from "../schema-translate/model.js";
import { attribute, formatPath, index, key as mapKey, type Path } from "../terraform/path.js";
import { isPropertyMap, OutputValue, Secret, type PropertyMap, type PropertyValue } from "./property-value.js";
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
 * if they are less than half the key away. A key inside a setting's block or object that it does not have fails on
 * its path (`proxies[0].urll`), explicit provider and stack configuration alike, with the same suggestions among the
 * block's own names: Terraform refuses such a configuration, and converting it would drop the key unseen.
 */
export function unknownSettings(model: ProviderModel, inputs: PropertyMap, urn: string): CheckFailure[] {
  const known = new Set(model.config.map((p) => p.name));
  const failures: CheckFailure[] = [];
  for (const key of Object.keys(inputs)) {
    if (known.has(key) || ENGINE_KEYS.has(key) || key.startsWith("__")) continue;
    const suggestions = nearestNames(model.config, key);
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
  for (const p of model.config) {
    const v = inputs[p.name];
    if (v !== undefined) unknownKeys(model.name, p.type, v, [attribute(p.name)], failures);
  }
  return failures;
}

/** Failures for the keys of `v`'s objects, at any depth, that their object type has no property of. */
function unknownKeys(pkg: string, t: TypeModel, v: PropertyValue, path: Path, failures: CheckFailure[]): void {
  while (v instanceof Secret || (v instanceof OutputValue && v.known)) v = v instanceof Secret ? v.value : v.value!;
  if (t.kind === "array" && Array.isArray(v)) v.forEach((x, i) => unknownKeys(pkg, t.items, x, [...path, index(i)], failures));
  if (t.kind === "map" && isPropertyMap(v)) for (const [k, x] of Object.entries(v)) unknownKeys(pkg, t.values, x, [...path, mapKey(k)], failures);
  if (t.kind !== "object" || !isPropertyMap(v)) return;
  const props = t.ref.properties;
  for (const [k, x] of Object.entries(v)) {
    const p = props.find((q) => q.name === k);
    if (k.startsWith("__")) continue;
    if (p !== undefined) {
      unknownKeys(pkg, p.type, x, [...path, attribute(k)], failures);
      continue;
    }
    const suggestions = nearestNames(props, k);
    const dym = suggestions.length === 0 ? "" : `; did you mean ${suggestions.join(" or ")}?`;
    failures.push({ property: formatPath([...path, attribute(k)]), reason: `the ${pkg} provider has no setting ${k} in ${formatPath(path)}${dym}` });
  }
}

/** The names among `props` a mistyped `key` most likely meant. */
function nearestNames(props: readonly PropertyModel[], key: string): string[] {
  const byTfName = props.filter((p) => p.tfName === key || p.name.toLowerCase() === key.toLowerCase()).map((p) => p.name);
  if (byTfName.length > 0) return byTfName;
  const scored = props.map((p) => ({ name: p.name, d: distance(key, p.name) }));
  const close = scored.filter((s) => s.d <= 2).map((s) => s.name);
  if (close.length > 0) return close;
  // Past the reference's two edits (`maxRetry` is three from `maxRetries`), the nearest, while under half the key.
  const best = Math.min(...scored.map((s) => s.d));
  return best <= Math.floor(key.length / 2) ? scored.filter((s) => s.d === best).map((s) => s.name) : [];
}
