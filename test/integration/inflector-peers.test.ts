// Every attribute and block name of every real peer's Terraform schema inflects as the Go pulumi/inflector (run live) does.
import { execFileSync } from "node:child_process";
import { execAsync } from "../support/processes.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Pluralize, Singularize } from "../../src/schema-translate/inflector.js";
import { propertyName } from "../../src/schema-translate/names.js";
import { GrpcTerraformProvider } from "../../src/terraform/client.js";
import type { Attribute, Block, ProviderSchema } from "../../src/terraform/types.js";
import { peerPath, pins, repoRoot } from "../support/peers.js";

interface Vector {
  word: string;
  plural: string | null;
  singular: string | null;
}

const scratch = mkdtempSync(join(tmpdir(), "tfbridge-inflector-"));
const generator = join(scratch, "inflectorvectors");

beforeAll(async () => {
  // Built once; `go run` would relink for every peer. Asynchronously: a cold Go cache takes minutes.
  await execAsync("go", ["build", "-o", generator, "."], { cwd: join(repoRoot, "test/peers/inflectorvectors") });
}, 300_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function attributeNames(attrs: readonly Attribute[], into: Set<string>): void {
  for (const a of attrs) {
    into.add(a.name);
    if (a.nestedType !== undefined) attributeNames(a.nestedType.attributes, into);
  }
}

function blockNames(block: Block, into: Set<string>): void {
  attributeNames(block.attributes, into);
  for (const nb of block.blockTypes) {
    into.add(nb.typeName);
    blockNames(nb.block, into);
  }
}

/** Every attribute and block name at every depth, with its Pulumi camelCase form (what `singularize` is given). */
function schemaNames(schema: ProviderSchema): string[] {
  const names = new Set<string>();
  const schemas = [schema.provider, ...(schema.providerMeta ? [schema.providerMeta] : [])];
  for (const m of [schema.resources, schema.dataSources, schema.ephemeralResources]) schemas.push(...m.values());
  for (const s of schemas) blockNames(s.block, names);
  for (const n of [...names]) names.add(propertyName(n));
  return [...names].sort();
}

function attempt(f: (w: string) => string, word: string): string | null {
  try {
    return f(word);
  } catch {
    return null;
  }
}

describe("pulumi/inflector on the peers' Terraform names", () => {
  for (const name of Object.keys(pins)) {
    it(name, async () => {
      const p = await GrpcTerraformProvider.launch({ path: peerPath(name) });
      let names: string[];
      try {
        names = schemaNames(await p.getProviderSchema());
      } finally {
        await p.close();
      }
      expect(names.length).toBeGreaterThan(0);
      const go = JSON.parse(execFileSync(generator, [], { input: names.join("\n") + "\n", encoding: "utf8" })) as Vector[];
      expect(go.map((v) => v.word)).toEqual(names);
      const mismatches = go.flatMap((v) => {
        const plural = attempt(Pluralize, v.word);
        const singular = attempt(Singularize, v.word);
        return plural === v.plural && singular === v.singular
          ? []
          : [`${v.word}: go ${JSON.stringify([v.plural, v.singular])}, ours ${JSON.stringify([plural, singular])}`];
      });
      console.log(`${name}: ${names.length} names, ${mismatches.length} mismatches`);
      expect(mismatches).toEqual([]);
    });
  }
});
