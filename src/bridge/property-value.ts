// Pulumi property values as the bridge sees them: plain data plus secrets, unknowns, outputs, references, assets.

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
