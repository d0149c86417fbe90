// The public API of the cty codec: Terraform's type system and its msgpack and JSON wire encodings.

export { CtyError } from "./errors.js";
export {
  attributeRecord,
  CtyBool,
  CtyDynamic,
  CtyNumber,
  CtyString,
  list,
  map,
  isPrimitiveType,
  object,
  objectOwning,
  parseType,
  parseTypeBytes,
  set,
  tuple,
  typeEquals,
  typeJsonText,
  typeString,
  typeToJson,
  type CtyType,
} from "./type.js";
export {
  BigNum,
  Dynamic,
  impliedType,
  isRecord,
  isUnknown,
  rawEquals,
  UNKNOWN,
  Unknown,
  wholeContainsUnknown,
  type CtyRecord,
  type CtyValue,
  type Refinement,
} from "./value.js";
export { decodeMsgpack, encodeMsgpack } from "./msgpack.js";
export { decodeJson, encodeJson } from "./json.js";
