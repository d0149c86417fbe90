// The oracle corpus's types and files: schema shapes, cases (a configuration and its change) and Terraform's recorded answers.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "../support/peers.js";

export type Flavour = "sdkv2" | "framework";
export const FLAVOURS: readonly Flavour[] = ["sdkv2", "framework"];
/** The schema-driven peer that serves each flavour (test/peers/SHAPES.md). */
export const PEER: Record<Flavour, "shapesdk" | "shapefw"> = { sdkv2: "shapesdk", framework: "shapefw" };

export const CORPUS_DIR = join(repoRoot, "test/crosstest/corpus");
export const GOLDEN_DIR = join(repoRoot, "test/crosstest/golden");

/** A value only known after apply: the output of `<provider>_source.<case>` with input "u", and the value it then has. */
export interface Unknown {
  $unknown: string;
  value: Value;
}
export type Value = null | boolean | number | string | Value[] | { [k: string]: Value } | Unknown;

export type TypeDesc = string | [string, TypeDesc] | ["object", Record<string, TypeDesc>];

export interface AttrDesc {
  type?: TypeDesc;
  nested?: { mode: "single" | "list" | "set" | "map"; attributes: Record<string, AttrDesc> };
  optional?: boolean;
  required?: boolean;
  computed?: boolean;
  default?: Value;
  forceNew?: boolean;
  useStateForUnknown?: boolean;
  sensitive?: boolean;
  writeOnly?: boolean;
}

export interface BlockDesc {
  mode: "list" | "set" | "single";
  maxItems?: number;
  minItems?: number;
  forceNew?: boolean;
  attributes: Record<string, AttrDesc>;
  blocks?: Record<string, BlockDesc>;
}

export interface ShapeDesc {
  attributes: Record<string, AttrDesc>;
  blocks?: Record<string, BlockDesc>;
  plan?: { set: string; from: string }[];
}

/** One change: the configuration applied first, then the one planned and applied against it (Terraform names). */
export interface Case {
  id: string;
  flavour: Flavour;
  family: string;
  shape: string;
  scenario: string;
  config1: Record<string, Value>;
  config2: Record<string, Value>;
}

/** A case on a real peer's resource (`shape` is its Terraform type); `volatile` attributes are compared by presence. */
export interface PeerCase extends Omit<Case, "flavour"> {
  flavour: "peers";
  peer: string;
  volatile: string[];
}

/** The real peers' cases and the provider configuration each peer needs (`{dir}`, `{httpapi}` filled at run time). */
export function loadPeerCorpus(): { providers: Record<string, Record<string, Value>>; cases: PeerCase[] } {
  return JSON.parse(readFileSync(join(CORPUS_DIR, "peers.cases.json"), "utf8")) as { providers: Record<string, Record<string, Value>>; cases: PeerCase[] };
}

/** A changed place in Terraform's plan: a Terraform attribute path (`items[0].s`, `tags["k"]`) and how it changed. */
export interface ChangedPath {
  path: string;
  kind: "add" | "update" | "delete";
  replace: boolean;
}

/** What OpenTofu did with a case (test/crosstest/golden/<flavour>/<case id>.json). */
export interface Golden {
  id: string;
  /** Attribute values after applying config1 (OpenTofu's state, `tofu show -json`). */
  state1: Record<string, Value>;
  plan: {
    /** Actions of the plan of config2 against state1: ["no-op"], ["update"], ["delete", "create"], ["create", "delete"]. */
    actions: string[];
    replacePaths: string[];
    changed: ChangedPath[];
    before: Value;
    after: Value;
    afterUnknown: Value;
  };
  /** Attribute values after applying config2. */
  state2: Record<string, Value>;
  /** Changes a refresh-only plan found after the second apply (should be none), and actions a normal plan still wanted. */
  refreshDrift: string[];
  planAfterApply: string[];
  /** Attribute values after importing the object by id into an empty state. */
  imported: Record<string, Value> | null;
  /** Diagnostics OpenTofu gave for this case, if any step failed. */
  errors?: string[];
}

export function loadShapes(flavour: Flavour): Record<string, ShapeDesc> {
  return (JSON.parse(readFileSync(join(CORPUS_DIR, `${flavour}.shapes.json`), "utf8")) as { resources: Record<string, ShapeDesc> }).resources;
}

export function loadCases(flavour: Flavour): Case[] {
  return JSON.parse(readFileSync(join(CORPUS_DIR, `${flavour}.cases.json`), "utf8")) as Case[];
}

/** A golden's file: `golden/<flavour or "peers">/<case id>.json`. */
export function goldenPath(flavour: Flavour | "peers", id: string): string {
  return join(GOLDEN_DIR, flavour, `${id}.json`);
}

export function loadGolden(flavour: Flavour | "peers", id: string): Golden | undefined {
  const p = goldenPath(flavour, id);
  return existsSync(p) ? (JSON.parse(readFileSync(p, "utf8")) as Golden) : undefined;
}

export function isUnknownMarker(v: unknown): v is Unknown {
  return typeof v === "object" && v !== null && !Array.isArray(v) && "$unknown" in v;
}
