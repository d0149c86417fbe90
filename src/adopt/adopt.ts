// Adoption of a Terraform state's objects as Pulumi resources: each instance to a resource of the package that serves its provider, or a reason it is not adopted.
import { formatAddress as formatProviderAddress, sameProvider } from "../acquire/address.js";
import type { TerraformBridge } from "../bridge/bridge.js";
import { BridgeError } from "../bridge/types.js";
import type { PropertyMap } from "../bridge/property-value.js";
import type { ProviderOrigin } from "../parameterize/index.js";
import { pulumiName, uniqueNames, variableName } from "./names.js";
import type { StateInstance, TerraformState } from "./tfstate.js";

/** A parameterized package of the project, ready to translate states of its provider. */
export interface AdoptionPackage {
  /** The Pulumi package name (`local`). */
  name: string;
  version: string;
  /** The parameterization value bytes, as the package's provider resource and program code name it. */
  value: Uint8Array;
  origin: ProviderOrigin;
  bridge: TerraformBridge;
}

export interface AdoptedResource {
  address: string;
  terraformType: string;
  /** The Pulumi resource name and type token. */
  name: string;
  token: string;
  variable: string;
  id: string;
  outputs: PropertyMap;
  inputs: PropertyMap;
  package: AdoptionPackage;
}

export interface NotAdopted {
  address: string;
  reason: string;
}

export interface Adoption {
  adopted: AdoptedResource[];
  notAdopted: NotAdopted[];
}

/**
 * Whether `pkg` serves the provider a state names by its source address: the same namespace and type, on the same
 * registry host (Terraform's and OpenTofu's public registries count as one: OpenTofu writes its own host for the same
 * providers); a package made from a local binary serves the provider of its type.
 */
export function servesProvider(origin: ProviderOrigin, address: string): boolean {
  const parts = address.split("/");
  const [host, namespace, type] = parts.length === 3 ? parts : ["registry.terraform.io", ...parts];
  if (origin.kind === "local") return origin.type === type;
  return sameProvider(origin, { host: host ?? "", namespace: namespace ?? "", type: type ?? "" });
}

/**
 * Every instance of the state adopted through the package that serves its provider, in the state's order; what cannot
 * be adopted is returned with its reason.
 */
export async function adoptState(state: TerraformState, packages: readonly AdoptionPackage[]): Promise<Adoption> {
  const adopted: AdoptedResource[] = [];
  const notAdopted: NotAdopted[] = [];
  const candidates: { instance: StateInstance; pkg: AdoptionPackage; token: string }[] = [];
  for (const instance of state.instances) {
    const why = (reason: string) => notAdopted.push({ address: instance.address, reason });
    if (instance.mode === "data") {
      why("a data source: its values are read again by the program, not kept in Pulumi state");
      continue;
    }
    if (instance.condition === "deposed") {
      why("a deposed object (left by a create-before-destroy replacement that failed): Terraform deletes it on its next apply; delete it with Terraform first");
      continue;
    }
    if (instance.condition === "tainted") {
      why("tainted: Terraform would replace it on its next apply; replace it with Terraform first (or `terraform untaint` it)");
      continue;
    }
    const pkg = packages.find((p) => servesProvider(p.origin, instance.provider));
    if (pkg === undefined) {
      why(`no package of the project serves its provider ${instance.provider}: add one with \`pulumi package add terraform-provider ${instance.provider.split("/").slice(-2).join("/")} <version>\``);
      continue;
    }
    const model = [...pkg.bridge.model.resources.values()].find((r) => r.tfName === instance.type);
    if (model === undefined) {
      why(`the package ${pkg.name} ${pkg.version} has no resource ${instance.type}${pkg.bridge.model.resources.size === 0 ? "" : " (is the package's version the one Terraform used?)"}`);
      continue;
    }
    candidates.push({ instance, pkg, token: model.token });
  }
  const names = uniqueNames(candidates.map((c) => `${c.token}::${pulumiName(c.instance)}`)).map((n) => n.slice(n.indexOf("::") + 2));
  const variables = uniqueNames(candidates.map((c, i) => variableName(c.instance.type, names[i]!)));
  for (const [i, { instance, pkg, token }] of candidates.entries()) {
    try {
      const { id, outputs, inputs } = await pkg.bridge.adopt(token, instance);
      adopted.push({ address: instance.address, terraformType: instance.type, name: names[i]!, token, variable: variables[i]!, id, outputs, inputs, package: pkg });
    } catch (e) {
      if (!(e instanceof BridgeError)) throw e;
      notAdopted.push({ address: instance.address, reason: e.message });
    }
  }
  return { adopted, notAdopted };
}

/** How a message names where a package came from. */
export function describeOrigin(origin: ProviderOrigin): string {
  return origin.kind === "local" ? origin.path : formatProviderAddress(origin);
}

export { formatAddress } from "./tfstate.js";
