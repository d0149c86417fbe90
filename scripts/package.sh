#!/usr/bin/env bash
# Packages the plugin for `pulumi plugin install resource terraform-provider <version> --file <tarball>`:
#   dist/plugin.mjs (+ .map)  esbuild bundle of src/server/main.ts and every dependency (ESM, node20)
#   dist/proto/               the wire definitions, which src/proto.ts finds beside the bundle
#   dist/pulumi-resource-terraform-provider-v<version>-linux-amd64.tar.gz with, at its root:
#     pulumi-resource-terraform-provider   the sh launcher (runs node on dist/plugin.mjs beside it)
#     dist/plugin.mjs, dist/plugin.mjs.map, dist/proto/...
# No PulumiPlugin.yaml: the engine executes pulumi-resource-terraform-provider directly; a PulumiPlugin.yaml
# would route it through a language host instead. Needs `node` (20+) on PATH where the plugin runs.
# Prints the tarball path on its last line.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
version="$(node -p 'require("./package.json").version')"
out="$root/dist"
mkdir -p "$out"
rm -rf "$out/plugin.mjs" "$out/plugin.mjs.map" "$out/proto"

# grpc-js and friends are CommonJS and require() Node built-ins; an ESM bundle needs a real require for that.
node_modules/.bin/esbuild src/server/main.ts \
  --bundle --platform=node --format=esm --target=node20 \
  --outfile="$out/plugin.mjs" --sourcemap --legal-comments=none --log-level=warning \
  --define:__TF_BRIDGE_VERSION__="\"$version\"" \
  --banner:js="import { createRequire as __tfBridgeCreateRequire } from 'node:module'; const require = __tfBridgeCreateRequire(import.meta.url);"
cp -R proto "$out/proto"

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
install -m 0755 bin/pulumi-resource-terraform-provider "$stage/pulumi-resource-terraform-provider"
mkdir -p "$stage/dist"
cp "$out/plugin.mjs" "$out/plugin.mjs.map" "$stage/dist/"
cp -R proto "$stage/dist/proto"
tarball="$out/pulumi-resource-terraform-provider-v$version-linux-amd64.tar.gz"
tar -czf "$tarball" -C "$stage" --owner=0 --group=0 --numeric-owner .
echo "package: $(du -h "$tarball" | cut -f1) $tarball" >&2
echo "$tarball"
