// Pulumi property values as the bridge sees them: plain data plus secrets, unknowns, outputs, references, assets; and
// Pulumi's signatures of those special values where they are objects (a Struct on the wire, a deployment's JSON).

/**
 * The key whose value names what a special object is (`{SIG_KEY: SECRET_SIG, ...}`), in a Struct and in a deployment
 * alike.
 */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
export const RESOURCE_REFERENCE_SIG = "5cf8f73096256a8f31e491e813e4eb8e";
export const ASSET_SIG = "c44067f5952c0a294b673a41bacd8c17";
export const ARCHIVE_SIG = "0def7320c3a5731c473e5ecbe6d01bc7";
export const OUTPUT_VALUE_SIG = "d0e6a833031e9bbcd3f4e8bde6ca49a4";


/** A value the engine does not know yet (preview); the wire's unknown sentinel string. */
export class Computed {
  private constructor() {}
  static readonly instance = new Computed();
}
export const COMPUTED = Computed.instance;

export class Secret {
  constructor(readonly value: PropertyValue) {}
}

/** An output value with its knownness, secretness and dependencies (sent when the provider accepts outputs). */
export class OutputValue {
  constructor(
    /** Undefined when unknown. */
    readonly value: PropertyValue | undefined,
    readonly secret: boolean,
    readonly dependencies: readonly string[],
  ) {}
  get known(): boolean {
    return this.value !== undefined;
  }
}

export class ResourceReference {
  constructor(
    readonly urn: string,
    /** Undefined for component resources; may be Computed. */
    readonly id: PropertyValue | undefined,
    readonly packageVersion: string,
  ) {}
}

/** Assets and archives are passed through untouched; Terraform has no such values. */
export class AssetOrArchive {
  constructor(
    readonly kind: "asset" | "archive",
    readonly fields: Readonly<Record<string, unknown>>,
  ) {}
}

export type PropertyMap = { [key: string]: PropertyValue };

export type PropertyValue =
  | null
  | boolean
  | number
  | string
  | PropertyValue[]
  | PropertyMap
  | Computed
  | Secret
  | OutputValue
  | ResourceReference
  | AssetOrArchive;

export function isPropertyMap(v: PropertyValue | undefined): v is PropertyMap {
  return v !== null && typeof v === "object" && !Array.isArray(v) && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);
}
