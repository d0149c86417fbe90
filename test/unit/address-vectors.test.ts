// Our provider address parser (src/acquire/address.ts) against Terraform v1.16.4's own, address for address: the
// answers of tfaddr.ParseProviderSource recorded in test/vectors/address/vectors.json by test/peers/addressvectors.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_NAMESPACE, DEFAULT_REGISTRY_HOST, parseProviderAddress } from "../../src/acquire/address.js";
import { comparisonHost } from "../../src/acquire/credentials.js";

interface Vector {
  source: string;
  host?: string;
  namespace?: string;
  type?: string;
  error?: string;
}

const vectors = JSON.parse(readFileSync(join(__dirname, "../vectors/address/vectors.json"), "utf8")) as Vector[];
const inputs = readFileSync(join(__dirname, "../vectors/address/inputs.txt"), "utf8").split("\n").slice(0, -1);

/**
 * Where we answer otherwise, on purpose. Terraform's answer is in the vectors; ours is asserted here.
 * - Terraform's legacy namespace `-` (pre-0.13 addresses, resolved by its legacy lookup) names nothing a registry
 *   serves; we refuse it.
 * - A bare `terraform-provider-aws`: Terraform's parser returns a bare type before its `terraform-` check; we give
 *   the hint we give for `hashicorp/terraform-provider-aws` (and how to name a binary on disk).
 * - A negative port: Go's strconv.Atoi reads `-1`, and Terraform keeps `example.com:-1`; no registry listens there.
 */
const OURS_REFUSES = new Set(["-/thing", "-/aws", "registry.terraform.io/-/aws", "terraform-provider-aws", "example.com:-1/hashicorp/random"]);

type Answer = { host: string; namespace: string; type: string } | "refused";

function ours(source: string): Answer {
  try {
    return parseProviderAddress(source);
  } catch {
    return "refused";
  }
}

/**
 * Terraform's answer in our terms: a bare `type` has Terraform's unknown namespace `?` (its installer then asks the
 * registry, which answers `hashicorp`) and a host-less address registry.terraform.io; ours fills in the defaults.
 */
function theirs(v: Vector): Answer {
  if (v.error !== undefined) return "refused";
  const parts = v.source.split("/").length;
  return {
    host: parts === 3 ? v.host! : DEFAULT_REGISTRY_HOST,
    namespace: parts >= 2 ? v.namespace! : DEFAULT_NAMESPACE,
    type: v.type!,
  };
}

describe("provider addresses against Terraform v1.16.4's parser", () => {
  it("the vectors are the generator's answers for every input, good and bad", () => {
    expect(vectors.map((v) => v.source)).toEqual(inputs);
    expect(vectors.filter((v) => v.error === undefined).length).toBeGreaterThan(40);
    expect(vectors.filter((v) => v.error !== undefined).length).toBeGreaterThan(40);
    // The namespace rule Terraform 1.16 relaxed, as the generator recorded it.
    expect(vectors.find((v) => v.source === "my_org/thing")).toMatchObject({ namespace: "my_org", type: "thing" });
    expect(vectors.find((v) => v.source === "hashicorp/my_thing")?.error).toMatch(/Invalid provider type/);
  });

  it.each(vectors.filter((v) => !OURS_REFUSES.has(v.source)).map((v) => [v.source, v] as const))("%j", (_source, v) => {
    expect(ours(v.source)).toEqual(theirs(v));
  });

  it.each([...OURS_REFUSES])("%j: Terraform accepts it, we refuse it (listed)", (source) => {
    expect(theirs(vectors.find((v) => v.source === source)!)).not.toBe("refused");
    expect(ours(source)).toBe("refused");
  });

  it("a host in a credentials block or an installation pattern is compared in the same form", () => {
    for (const v of vectors.filter((v) => v.error === undefined && v.source.split("/").length === 3 && !OURS_REFUSES.has(v.source))) {
      expect(comparisonHost(v.source.split("/")[0]!), v.source).toBe(v.host);
    }
  });
});
