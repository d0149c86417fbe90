// Adopted resources merged into a stack's exported deployment (`pulumi stack export`), for `pulumi stack import`.
import { randomUUID } from "node:crypto";
import { SECRET_SIG, SIG_KEY, Secret, isPropertyMap, type PropertyValue } from "../bridge/property-value.js";
import { VERSION } from "../version.js";
import type { AdoptedResource, NotAdopted } from "./adopt.js";

interface DeploymentResource {
  urn: string;
  custom: boolean;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  parent?: string;
  provider?: string;
  [k: string]: unknown;
}

/** What `pulumi stack export` prints (version 3). */
export interface UntypedDeployment {
  version: number;
  deployment: { resources?: DeploymentResource[]; [k: string]: unknown };
}

/** A property value as a deployment holds it in plaintext; a secret in the form `stack import` takes and encrypts. */
export function deploymentValue(v: PropertyValue): unknown {
  if (v instanceof Secret) return { [SIG_KEY]: SECRET_SIG, plaintext: JSON.stringify(deploymentValue(v.value)) };
  if (Array.isArray(v)) return v.map(deploymentValue);
  if (isPropertyMap(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, deploymentValue(x)]));
  if (v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean") return v;
  throw new Error(`a value of an adopted state cannot be written into a deployment: ${String(v)}`);
}

/**
 * The stack's deployment with the adopted resources added: each under the stack resource, with the default provider
 * of its package (the one a program's resources of that package use; added as the engine would write it when the
 * stack has none yet). A resource whose URN the stack has already is not added and is returned as not adopted.
 */
export function mergeAdopted(exported: UntypedDeployment, stack: string, project: string, adopted: readonly AdoptedResource[]): { deployment: UntypedDeployment; added: AdoptedResource[]; notAdopted: NotAdopted[] } {
  const resources = [...(exported.deployment.resources ?? [])];
  const byUrn = new Set(resources.map((r) => r.urn));
  const prefix = `urn:pulumi:${stack}::${project}::`;
  const stackUrn = `${prefix}pulumi:pulumi:Stack::${project}-${stack}`;
  if (!byUrn.has(stackUrn)) {
    resources.unshift({ urn: stackUrn, custom: false, type: "pulumi:pulumi:Stack" });
    byUrn.add(stackUrn);
  }
  const providerRefs = new Map<string, string>();
  const providerRef = (r: AdoptedResource): string => {
    const pkg = r.package;
    let ref = providerRefs.get(pkg.name);
    if (ref !== undefined) return ref;
    const type = `pulumi:providers:${pkg.name}`;
    const urn = `${prefix}${type}::default_${pkg.version.replace(/[.+-]/g, "_")}`;
    let provider = resources.find((x) => x.urn === urn);
    if (provider === undefined) {
      provider = {
        urn,
        custom: true,
        id: randomUUID(),
        type,
        inputs: { __internal: { name: "terraform-provider", parameterization: Buffer.from(pkg.value).toString("base64"), version: VERSION }, version: pkg.version },
        outputs: { version: pkg.version },
      };
      resources.push(provider);
      byUrn.add(urn);
    }
    ref = `${urn}::${provider.id ?? ""}`;
    providerRefs.set(pkg.name, ref);
    return ref;
  };
  const added: AdoptedResource[] = [];
  const notAdopted: NotAdopted[] = [];
  for (const r of adopted) {
    const urn = `${prefix}${r.token}::${r.name}`;
    if (byUrn.has(urn)) {
      notAdopted.push({ address: r.address, reason: `the stack has ${urn} already (adopted before?): remove it with \`pulumi state delete '${urn}'\` to adopt it again` });
      continue;
    }
    byUrn.add(urn);
    const inputs = deploymentValue(r.inputs) as Record<string, unknown>;
    resources.push({
      urn,
      custom: true,
      id: r.id,
      type: r.token,
      inputs,
      outputs: deploymentValue(r.outputs) as Record<string, unknown>,
      parent: stackUrn,
      provider: providerRef(r),
      propertyDependencies: Object.fromEntries(Object.keys(inputs).map((k) => [k, []])),
    });
    added.push(r);
  }
  return { deployment: { ...exported, deployment: { ...exported.deployment, resources } }, added, notAdopted };
}
