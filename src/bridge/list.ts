// Pulumi's List over a Terraform 1.14 list resource: the query as the list's config, ids every listed item imports by,
// and pages with a continuation token (a Terraform list has no cursor, so a page re-lists and skips what came before).
import { encodeJson, isRecord, wholeContainsUnknown, type CtyValue } from "../terraform/cty/index.js";
import { errorDiagnostics, failureMessage } from "../terraform/diagnostics.js";
import { identityType } from "../terraform/schema.js";
import type { IdentitySchema, ListResourceEvent } from "../terraform/types.js";
import type { ResourceModel } from "../schema-translate/model.js";
import { ProviderCaller } from "./caller.js";
import { ConversionError, toTfObject } from "./property-cty.js";
import type { PropertyMap } from "./property-value.js";
import { BridgeError } from "./types.js";

export interface ListRequest {
  query: PropertyMap;
  /** At most this many results over all pages; 0 or less: no limit. */
  limit: number;
  /** At most this many results in this page; 0 or less: DEFAULT_LIST_PAGE_SIZE. */
  pageSize: number;
  /** Empty for the first page, else the token the previous page ended with. */
  continuationToken: string;
}

/** A page: the results and the token of the next page ("" when this was the last); or "computed" for an unknown query. */
export type ListPage = { results: { id: string; name: string }[]; continuationToken: string } | "computed";

/** The reference's page size; `pulumi do … list` without --all or --count shows one page. */
export const DEFAULT_LIST_PAGE_SIZE = 100;

/** Terraform's limit when Pulumi gives none (the reference sends the largest int64; any bound past every listing will do). */
const NO_LIMIT = Number.MAX_SAFE_INTEGER;

interface Cursor {
  /** Results already returned by earlier pages. */
  skip: number;
  /** What the first page was asked for; a continuation with another query or limit is refused. */
  query: string;
  limit: number;
}

/** An opaque token: the cursor as base64url JSON. */
function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c)).toString("base64url");
}

function decodeCursor(token: string): Cursor {
  try {
    const c = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as Partial<Cursor>;
    if (typeof c.skip === "number" && c.skip >= 0 && typeof c.query === "string" && typeof c.limit === "number") return c as Cursor;
  } catch {
    // reported below
  }
  throw new BridgeError(`the List continuation token ${JSON.stringify(token.slice(0, 40))} was not made by this provider; start the listing again without one`);
}

/**
 * The Pulumi id of a listed item, one that Read (import) accepts: the object's `id` when the resource's Pulumi id is its
 * `id` attribute and the provider sent the object, else the identity as cty JSON, which import reads as an identity
 * (identity.ts parseImportTarget).
 */
export function listedId(model: ResourceModel, event: ListResourceEvent, identitySchema: IdentitySchema | undefined): string {
  const object = event.resourceObject;
  if (model.id.kind === "attribute" && isRecord(object)) {
    const id = object[model.id.tfName];
    if (typeof id === "string" && id !== "") return id;
  }
  const identity = event.identity;
  if (identity !== undefined && identitySchema !== undefined && isRecord(identity) && !wholeContainsUnknown(identity)) {
    return encodeJson(identity, identityType(identitySchema));
  }
  throw new BridgeError(`${model.tfName}: the provider listed ${event.displayName === "" ? "an item" : JSON.stringify(event.displayName)} with neither an id nor an identity, so it cannot be imported`);
}

export class Lister extends ProviderCaller {
  /** The list's config from the query: every key one of the list inputs, converted by the same rules as any input. */
  private config(model: ResourceModel, query: PropertyMap): CtyValue {
    const props = model.list!.properties;
    const unknownKeys = Object.keys(query).filter((k) => !props.some((p) => p.name === k && p.input));
    if (unknownKeys.length > 0) {
      const known = props.filter((p) => p.input).map((p) => p.name);
      throw new BridgeError(`${model.token} has no list input ${unknownKeys.join(", ")}; its list inputs are ${known.length > 0 ? known.join(", ") : "none"}`);
    }
    try {
      return toTfObject(props, query, this.secrets);
    } catch (e) {
      if (e instanceof ConversionError) throw new BridgeError(`the list query for ${model.token} is not valid: ${e.property}: ${e.reason}`);
      throw e;
    }
  }

  /** One page of the listing; `cancelled` is polled between results, and a true one stops the Terraform stream. */
  async list(model: ResourceModel, req: ListRequest, cancelled: () => boolean = () => false): Promise<ListPage> {
    if (model.list === undefined) throw new BridgeError(`${model.token} cannot be listed: its Terraform provider has no list resource ${model.tfName}`);
    if (this.tf.listResource === undefined) throw new BridgeError(`${model.token} cannot be listed: this Terraform client does not stream list resources`);
    const config = this.config(model, req.query);
    if (wholeContainsUnknown(config)) return "computed";
    const queryKey = JSON.stringify(config, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
    const limit = req.limit > 0 ? req.limit : 0;
    const cursor: Cursor = req.continuationToken === "" ? { skip: 0, query: queryKey, limit } : decodeCursor(req.continuationToken);
    if (cursor.query !== queryKey || cursor.limit !== limit) {
      throw new BridgeError("the List continuation token belongs to a listing with another query or limit; start again without a token");
    }
    const pageSize = req.pageSize > 0 ? req.pageSize : DEFAULT_LIST_PAGE_SIZE;
    // One more than the page, to know whether another page follows.
    const wanted = Math.min(cursor.skip + pageSize + 1, limit > 0 ? limit : NO_LIMIT);
    const includeResource = model.id.kind === "attribute";
    const diags = await this.tf.validateListResourceConfig?.(model.tfName, config, includeResource, wanted);
    this.warnThenThrow(diags ?? [], `list ${model.tfName}`, `the list query for ${model.token} is not valid`);
    const identitySchema = (await this.tf.getResourceIdentitySchemas()).get(model.tfName);

    const results: { id: string; name: string }[] = [];
    let seen = 0;
    let more = false;
    const stream = await this.tf.listResource({ typeName: model.tfName, config, includeResource, limit: wanted });
    try {
      for await (const event of stream) {
        if (cancelled()) throw new BridgeError(`listing ${model.token} was cancelled`);
        if (errorDiagnostics(event.diagnostics).length > 0) throw new BridgeError(failureMessage(`listing ${model.tfName}`, event.diagnostics));
        this.warn(event.diagnostics, `list ${model.tfName}`);
        // An event with only warnings carries no item.
        if (event.identity === undefined && event.resourceObject === undefined) continue;
        if (seen++ < cursor.skip) continue;
        if (results.length === pageSize) {
          more = true;
          break;
        }
        results.push({ id: listedId(model, event, identitySchema), name: event.displayName });
        // Core stops reading at the limit; so do we, whatever the provider does with it.
        if (limit > 0 && cursor.skip + results.length >= limit) break;
      }
    } finally {
      stream.cancel();
    }
    return { results, continuationToken: more ? encodeCursor({ ...cursor, skip: cursor.skip + results.length }) : "" };
  }
}
