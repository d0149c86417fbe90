// Packs a directory tree into the two SEA assets src/server/sea.ts unpacks: manifest.json and payload.bin.
// Usage: node scripts/sea-pack.cjs <tree> <out-dir>
const { createHash } = require("node:crypto");
const { readdirSync, readFileSync, statSync, writeFileSync } = require("node:fs");
const { join, relative } = require("node:path");

const [tree, out] = process.argv.slice(2);
if (tree === undefined || out === undefined) {
  console.error("usage: node scripts/sea-pack.cjs <tree> <out-dir>");
  process.exit(2);
}

/** Every file under dir, sorted, so the same tree always packs (and hashes) the same. */
function walk(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.isFile() ? [join(dir, e.name)] : []));
}

const hash = createHash("sha256");
const chunks = [];
const files = [];
let offset = 0;
for (const path of walk(tree)) {
  const data = readFileSync(path);
  const rel = relative(tree, path).split("\\").join("/");
  const mode = statSync(path).mode & 0o777;
  hash.update(`${rel}\0${mode}\0${data.length}\0`).update(data);
  files.push({ path: rel, mode, offset, size: data.length });
  chunks.push(data);
  offset += data.length;
}
writeFileSync(join(out, "payload.bin"), Buffer.concat(chunks));
writeFileSync(join(out, "manifest.json"), JSON.stringify({ hash: hash.digest("hex").slice(0, 24), files }));
console.error(`sea-pack: ${files.length} files, ${(offset / 1024 / 1024).toFixed(1)} MiB`);
