#!/usr/bin/env bash
# Builds Terraform, the oracle for what only Terraform has (actions, list resources, generated config), from the Go
# module proxy into the peer cache. BUSL-1.1: a test oracle only, never shipped or linked into anything we publish.
# The module zip lacks Terraform's nested modules (the nine remote-state backends and internal/legacy), which its go.mod
# replaces with local directories, so it is built from a writable copy with two edits: those backends' imports and map
# entries dropped from internal/backend/init/init.go, and the `replace …/internal/…` lines with their
# `v0.0.0-00010101…` requires dropped from go.mod. Idempotent; prints the binary's path on its last line.
set -euo pipefail
version="${TERRAFORM_VERSION:-v1.16.4}"
cache="${TF_BRIDGE_PEER_CACHE:-$HOME/.cache/pulumi-tf-bridge-ts/peers}"
dir="$cache/terraform/$version-release"
log() { echo "build-terraform: $*" >&2; }
mkdir -p "$cache/terraform"
# One build at a time: concurrent callers (test runs in several worktrees) wait here and then find the binary made.
exec 9>"$cache/terraform/.build.lock"
flock 9
if [ ! -x "$dir/terraform" ]; then
  command -v go >/dev/null || { log "Go is required (https://go.dev/dl)"; exit 1; }
  log "building Terraform $version (first build takes a few minutes)"
  work="$(mktemp -d "$cache/terraform/.tmp-XXXXXX")"
  trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
  src="$(cd "$work" && go mod download -json "github.com/hashicorp/terraform@$version" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const j=JSON.parse(s);if(j.Error){console.error(j.Error);process.exit(1)}console.log(j.Dir)})')"
  cp -r "$src" "$work/src"
  chmod -R u+w "$work/src"
  init="$work/src/internal/backend/init/init.go"
  # The backends whose modules the zip lacks: their import lines and their entries in the backends map.
  gone='backend(Azure|Consul|Cos|GCS|Kubernetes|OCI|OSS|Pg|S3)'
  grep -Eq "^\s+$gone \"" "$init" || { log "$init no longer imports the remote-state backends this script removes; update the script for $version"; exit 1; }
  grep -Ev "^\s+($gone \"|\"[a-z0-9]+\": +func\(\) backend\.Backend \{ return $gone\.New\(\) \},)" "$init" >"$init.new"
  mv "$init.new" "$init"
  grep -Eq "$gone" "$init" && { log "could not remove every remote-state backend from $init; update the script for $version"; exit 1; }
  grep -Ev '^(replace github\.com/hashicorp/terraform/internal/|\s+github\.com/hashicorp/terraform/internal/\S+ v0\.0\.0-00010101000000-000000000000)' \
    "$work/src/go.mod" >"$work/src/go.mod.new"
  mv "$work/src/go.mod.new" "$work/src/go.mod"
  (cd "$work/src" && CGO_ENABLED=0 go build -mod=mod -trimpath -ldflags "-s -w -X github.com/hashicorp/terraform/version.dev=no" -o "$work/out/terraform" .)
  "$work/out/terraform" version >/dev/null || { log "the freshly built terraform does not run"; exit 1; }
  rm -rf "$dir"; mv "$work/out" "$dir"
fi
echo "$dir/terraform"
