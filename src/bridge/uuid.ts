// Random UUIDs (version 4) drawn from fresh random bytes at every call.
//
// Not node:crypto's randomUUID: it hands out UUIDs from a cache of random bytes filled ahead, and a cache filled while
// the packaged plugin's startup snapshot was built (src/server/snapshot.ts) would give every process the same UUIDs.
import { randomBytes } from "node:crypto";

export function randomUuid(): string {
  const b = randomBytes(16);
  b[6] = (b[6]! & 0x0f) | 0x40; // version 4
  b[8] = (b[8]! & 0x3f) | 0x80; // RFC 9562 variant
  const h = b.toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
