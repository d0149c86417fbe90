// The single executable's main script where it has no startup snapshot: unpacks its files and runs dist/boot.cjs.
import Module from "node:module";
import { join } from "node:path";
import { unpackedTree } from "./unpack.js";

try {
  const boot = join(unpackedTree(), "dist", "boot.cjs");
  Module.createRequire(boot)(boot);
} catch (e) {
  process.stderr.write(`${(e as Error).message}\n`);
  process.exit(1);
}
