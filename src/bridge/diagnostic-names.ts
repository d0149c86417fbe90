// The Pulumi names in messages made from a provider's diagnostics: users write `stateDir`, the provider says `state_dir`.
import type { DiagnosticNames } from "../terraform/diagnostics.js";
import { formatPath } from "../terraform/path.js";
import type { AttributePath } from "../terraform/types.js";
import { objectTypeOf, type PropertyModel, type ProviderModel } from "../schema-translate/model.js";
import { toPropertyPath } from "./property-cty.js";

/**
 * Only names with an underscore are looked for in a message's text: such a name is no ordinary word (`rule` is, and
 * its property `rules` would be claimed wherever a message says "rule"), and a name without one is its own Pulumi
 * name but for plurals and renamed reserved words.
 */
const QUOTABLE = /_/;

/** Every distinct Terraform name under `props` whose Pulumi name differs, nested objects included; ambiguous ones out. */
function collectNames(props: readonly PropertyModel[], into: Map<string, string | null>, seen = new Set<readonly PropertyModel[]>()): void {
  if (seen.has(props)) return;
  seen.add(props);
  for (const p of props) {
    if (p.name !== p.tfName && QUOTABLE.test(p.tfName)) {
      const known = into.get(p.tfName);
      // One Terraform name with two Pulumi names (told apart in different objects) names neither for sure.
      if (known === undefined) into.set(p.tfName, p.name);
      else if (known !== null && known !== p.name) into.set(p.tfName, null);
    }
    const nested = objectTypeOf(p.type)?.properties;
    if (nested !== undefined) collectNames(nested, into, seen);
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const QUOTES = new Set(['"', "'", "`"]);

/**
 * The names of a resource's (data source's, function's, the provider configuration's) properties, for its
 * diagnostics: attribute paths become property paths through the model, and each Terraform name the text quotes
 * gets its Pulumi name after its first mention. `also` are names a message about this object may quote as well (the
 * provider configuration's, which a resource's errors name when the configuration lacks something).
 */
export function diagnosticNames(props: readonly PropertyModel[], also: readonly PropertyModel[] = []): DiagnosticNames {
  const own = new Map<string, string | null>();
  collectNames(props, own);
  const other = new Map<string, string | null>();
  collectNames(also, other);
  for (const [tf, name] of other) if (!own.has(tf)) own.set(tf, name);
  const names = new Map([...own].filter((e): e is [string, string] => e[1] !== null));
  const pattern = names.size === 0 ? undefined : new RegExp(`(?<![A-Za-z0-9_])(?:${[...names.keys()].map(escapeRegExp).join("|")})(?![A-Za-z0-9_])`, "g");
  return {
    path: (path: AttributePath) => (path.length === 0 ? undefined : formatPath(toPropertyPath(path, props))),
    text: (text: string) => {
      if (pattern === undefined) return text;
      const done = new Set<string>();
      let out = "";
      let from = 0;
      for (const m of text.matchAll(pattern)) {
        const tf = m[0];
        const pulumi = names.get(tf)!;
        // A quoted name keeps its quotes together: `"state_dir" (stateDir)`.
        const quote = text[m.index - 1];
        const end = m.index + tf.length + (quote !== undefined && QUOTES.has(quote) && text[m.index + tf.length] === quote ? 1 : 0);
        // Once per name, and not where the text already gives the Pulumi name.
        if (done.has(tf) || text.startsWith(` (${pulumi})`, end)) continue;
        done.add(tf);
        out += `${text.slice(from, end)} (${pulumi})`;
        from = end;
      }
      return out + text.slice(from);
    },
  };
}

/** The context the bridge reports the provider configuration's diagnostics under. */
const PROVIDER_CONFIGURATION = "provider configuration";

/**
 * The names for the diagnostics of one provider's model by the context they are reported under: a resource's, data
 * source's or ephemeral resource's Terraform name (with the provider configuration's names, which their errors may
 * quote), or "provider configuration".
 */
export class ModelNames {
  private readonly byContext = new Map<string, DiagnosticNames | undefined>();

  constructor(private readonly model: ProviderModel) {}

  for(context: string): DiagnosticNames | undefined {
    if (!this.byContext.has(context)) this.byContext.set(context, this.build(context));
    return this.byContext.get(context);
  }

  private build(context: string): DiagnosticNames | undefined {
    if (context === PROVIDER_CONFIGURATION) return diagnosticNames(this.model.config);
    for (const group of [this.model.resources, this.model.dataSources, this.model.ephemeralResources, this.model.actions]) {
      for (const m of group.values()) if (m.tfName === context) return diagnosticNames(m.properties, this.model.config);
    }
    return undefined;
  }
}
