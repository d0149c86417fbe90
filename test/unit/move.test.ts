// The move rules without a provider: the type kept in __meta, the diff of a move that changes nothing, and the refusals of
// providers no real peer stands for (one without the move_resource_state capability, one that predates the RPC), which a
// stub TerraformProvider answering only getProviderSchema and moveResourceState plays.
import { describe, expect, it } from "vitest";
import { readMeta, writeMeta } from "../../src/bridge/meta.js";
import { movedDiff, moveState } from "../../src/bridge/move.js";
import { BridgeError } from "../../src/bridge/types.js";
import { buildProviderModel } from "../../src/schema-translate/index.js";
import { ProviderCallError } from "../../src/terraform/errors.js";
import type { MoveRequest, ProviderSchema, TerraformProvider } from "../../src/terraform/types.js";
import { block, comp, opt, provider, S } from "../support/tf-schema.js";

const schema = provider({ resources: { acme_old: block([comp("id", S), opt("note", S)]), acme_new: block([comp("id", S), opt("label", S)]) } });
const model = buildProviderModel(schema, { packageName: "acme", packageVersion: "1.0.0" });
const OLD = model.resources.get("acme_old")!;
const NEW = model.resources.get("acme_new")!;

/** A provider that has the schema above and answers MoveResourceState with `move`; every other call is a test failure. */
function stub(capable: boolean, move: (r: MoveRequest) => Promise<unknown>): TerraformProvider {
  const s: ProviderSchema = { ...schema, serverCapabilities: { ...schema.serverCapabilities, moveResourceState: capable } };
  return new Proxy({} as TerraformProvider, {
    get: (_t, name) => {
      if (name === "getProviderSchema") return () => Promise.resolve(s);
      if (name === "moveResourceState") return move;
      return () => {
        throw new Error(`unexpected call ${String(name)}`);
      };
    },
  });
}

const source = { type: "acme_old", model: OLD, id: "x-1", state: { id: "x-1", note: "n", __meta: '{"schema_version":"0","type":"acme_old"}' }, meta: readMeta('{"schema_version":"0","type":"acme_old"}') };

describe("moves across resource types", () => {
  it("keeps the type in __meta, and reads a state without one as typeless", () => {
    expect(readMeta(writeMeta({ schemaVersion: 2, privateState: new Uint8Array(), type: "acme_old" }))).toEqual({ schemaVersion: 2, privateState: new Uint8Array(), type: "acme_old" });
    expect(readMeta('{"schema_version":"1"}')).not.toHaveProperty("type");
    expect(JSON.parse(writeMeta({ schemaVersion: 0, privateState: new Uint8Array([1]), type: "acme_new" }))).toEqual({ schema_version: "0", private_state: "AQ==", type: "acme_new" });
  });

  it("reports a move that changes nothing as a change of the properties the two types differ in", () => {
    expect(movedDiff({ id: "x", note: "n", same: 1, __meta: "a" }, { id: "x", label: "n", same: 2, __meta: "b" })).toEqual({
      changes: "some",
      replaces: [],
      deleteBeforeReplace: false,
      detailedDiff: { note: "delete", same: "update", label: "add" },
      changedKeys: ["label", "note", "same"],
    });
  });

  it("sends the stored state as Terraform's raw JSON with type, version, private state and provider address", async () => {
    const seen: MoveRequest[] = [];
    const moved = await moveState(
      stub(true, (r) => {
        seen.push(r);
        return Promise.resolve({ targetState: { id: "x-1", label: "n" }, targetPrivate: Buffer.from("p"), diagnostics: [] });
      }),
      source,
      NEW,
      "registry.terraform.io/acme/acme",
    );
    expect(moved).toEqual({ state: { id: "x-1", label: "n" }, privateState: Buffer.from("p") });
    expect(seen).toEqual([
      { sourceProviderAddress: "registry.terraform.io/acme/acme", sourceTypeName: "acme_old", sourceSchemaVersion: 0, sourceStateJson: '{"id":"x-1","note":"n"}', sourcePrivate: new Uint8Array(), targetTypeName: "acme_new" },
    ]);
  });

  it("refuses, naming both types, a provider without the capability (as Terraform does) and one that predates the RPC", async () => {
    const never = (): Promise<unknown> => Promise.reject(new Error("must not be called"));
    await expect(moveState(stub(false, never), source, NEW, "a")).rejects.toThrow(
      /^cannot move x-1 from acme_old \(acme:index\/old:Old\) to acme_new \(acme:index\/new:New\): the provider does not support moves across resource types/,
    );
    const old = stub(true, () => Promise.reject(new ProviderCallError("the provider does not implement MoveResourceState", "MoveResourceState", 12)));
    const err = await moveState(old, source, NEW, "a").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BridgeError);
    expect((err as Error).message).toContain("the provider does not implement MoveResourceState (it predates Terraform 1.8's moves across resource types)");
    expect((err as Error).message).toContain("`pulumi import acme:index/new:New <name> <id>`");
    // Other failures of the call are not a refusal to dress up.
    const broken = stub(true, () => Promise.reject(new ProviderCallError("MoveResourceState failed: boom", "MoveResourceState", 13)));
    await expect(moveState(broken, source, NEW, "a")).rejects.toThrow(/^MoveResourceState failed: boom$/);
  });
});
