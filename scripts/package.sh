#!/usr/bin/env bash
# Packages the plugin for `pulumi plugin install resource terraform-provider <version> --file <tarball>`:
#   dist/plugin.cjs (+ .map)  esbuild bundle of src/server/main.ts and every dependency (CommonJS, node20)
#   dist/boot.cjs             src/server/boot.ts: runs plugin.cjs with a V8 code cache kept beside it
#   dist/proto/               the wire definitions, which src/proto.ts finds beside the bundle
#   dist/pulumi-resource-terraform-provider-v<version>-linux-amd64.tar.gz with, at its root:
#     pulumi-resource-terraform-provider   the bash launcher (runs node on dist/boot.cjs beside it)
#     dist/boot.cjs, dist/plugin.cjs, dist/plugin.cjs.map, dist/proto/...
#     dist/node_modules/   packages that cannot be bundled (@cdktf/hcl2json reads its WebAssembly HCL parser from
#                          files beside its own code) with their runtime dependencies
# The tarball is replaced atomically (written beside, then renamed), so a reader never sees half of one.
# No PulumiPlugin.yaml: the engine executes pulumi-resource-terraform-provider directly; a PulumiPlugin.yaml
# would route it through a language host instead. Needs `node` (20+) on PATH where the plugin runs.
# Prints the tarball path on its last line.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
version="$(node -p 'require("./package.json").version')"
out="$root/dist"
mkdir -p "$out"
external=(@cdktf/hcl2json)
rm -rf "$out"/plugin.* "$out/boot.cjs" "$out/proto"

# CommonJS, not ESM: boot.cjs compiles the bundle as a vm.Script so that V8 can cache its code between runs (the
# sources are ESM; import.meta.url becomes the bundle's own file URL). No --enable-source-maps at run time: Node parses
# the 6 MB map at every start when it is on (~35 ms); NODE_OPTIONS=--enable-source-maps turns it on for debugging.
node_modules/.bin/esbuild src/server/main.ts \
  --bundle --platform=node --format=cjs --target=node20 \
  --outfile="$out/plugin.cjs" --sourcemap --legal-comments=none --log-level=warning \
  "${external[@]/#/--external:}" \
  --define:__TF_BRIDGE_VERSION__="\"$version\"" \
  --define:import.meta.url=__tfBridgeModuleUrl \
  --banner:js="const __tfBridgeModuleUrl = require('node:url').pathToFileURL(__filename).href;"
node_modules/.bin/esbuild src/server/boot.ts \
  --bundle --platform=node --format=cjs --target=node20 \
  --outfile="$out/boot.cjs" --legal-comments=none --log-level=warning \
  --define:__TF_BRIDGE_BOOT__=true
cp -R proto "$out/proto"

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
install -m 0755 bin/pulumi-resource-terraform-provider "$stage/pulumi-resource-terraform-provider"
mkdir -p "$stage/dist"
cp "$out/boot.cjs" "$out/plugin.cjs" "$out/plugin.cjs.map" "$stage/dist/"
cp -R proto "$stage/dist/proto"
# The external packages and everything they require at run time, found as Node would resolve them from here.
node -e '
  const fs = require("fs"), path = require("path");
  const seen = new Set();
  const find = (name, from) => {
    for (let d = from; ; d = path.dirname(d)) {
      const c = path.join(d, "node_modules", name);
      if (fs.existsSync(path.join(c, "package.json"))) return c;
      if (d === path.dirname(d)) return undefined;
    }
  };
  const visit = (name, from, optional) => {
    const dir = find(name, from);
    if (dir === undefined) { if (optional) return; throw new Error("cannot find " + name + " from " + from); }
    if (seen.has(dir)) return;
    seen.add(dir);
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
    for (const d of Object.keys(pkg.dependencies || {})) visit(d, dir, false);
    for (const d of Object.keys(pkg.optionalDependencies || {})) visit(d, dir, true);
  };
  for (const name of process.argv.slice(1)) visit(name, process.cwd(), false);
  for (const dir of seen) console.log(path.relative(path.join(process.cwd(), "node_modules"), dir));
' "${external[@]}" | while read -r rel; do
  mkdir -p "$stage/dist/node_modules/$(dirname "$rel")"
  cp -R "node_modules/$rel" "$stage/dist/node_modules/$rel"
done
tarball="$out/pulumi-resource-terraform-provider-v$version-linux-amd64.tar.gz"
tar -czf "$tarball.tmp.$$" -C "$stage" --owner=0 --group=0 --numeric-owner .
mv -f "$tarball.tmp.$$" "$tarball"
echo "package: $(du -h "$tarball" | cut -f1) $tarball" >&2
echo "$tarball"
