#!/usr/bin/env bash
# Builds Terraform, the oracle for what only Terraform has (actions, list resources, generated config), from the Go
# module proxy into the peer cache. BUSL-1.1: a test oracle only, never shipped or linked into anything we publish.
# The module zip lacks Terraform's nested modules (the nine remote-state backends and internal/legacy), which its go.mod
# replaces with local directories, so it is built from a writable copy with two edits: those backends' imports and map
# entries dropped from internal/backend/init/init.go, and the `replace …/internal/…` lines with their
# `v0.0.0-00010101…` requires dropped from go.mod. Idempotent; prints the binary's path on its last line.
set -euo pipefail
lib="$(dirname "${BASH_SOURCE[0]}")/lib"
# shellcheck source=lib/cache.sh
. "$lib/cache.sh"
# shellcheck source=lib/go-command.sh
. "$lib/go-command.sh"
log_prefix=build-terraform
version="${TERRAFORM_VERSION:-v1.16.4}"
dir="$peer_cache/terraform/$version-release"
log() { echo "$log_prefix: $*" >&2; }

# The backends whose modules the zip lacks: their imports and map entries, and go.mod's `replace …/internal/…` lines.
go_command_edit() {
  local src=$1 init="$1/internal/backend/init/init.go"
  local gone='backend(Azure|Consul|Cos|GCS|Kubernetes|OCI|OSS|Pg|S3)'
  grep -Eq "^\s+$gone \"" "$init" || { log "$init no longer imports the remote-state backends this script removes; update the script for $version"; exit 1; }
  grep -Ev "^\s+($gone \"|\"[a-z0-9]+\": +func\(\) backend\.Backend \{ return $gone\.New\(\) \},)" "$init" >"$init.new"
  mv "$init.new" "$init"
  grep -Eq "$gone" "$init" && { log "could not remove every remote-state backend from $init; update the script for $version"; exit 1; }
  grep -Ev '^(replace github\.com/hashicorp/terraform/internal/|\s+github\.com/hashicorp/terraform/internal/\S+ v0\.0\.0-00010101000000-000000000000)' \
    "$src/go.mod" >"$src/go.mod.new"
  mv "$src/go.mod.new" "$src/go.mod"
}
go_command_check() {
  "$1" version >/dev/null || { log "the freshly built terraform does not run"; exit 1; }
}

# One build at a time: concurrent callers (test runs in several worktrees) wait here and then find the binary made.
hold_lock "$peer_cache/terraform/.build.lock"
if [ ! -x "$dir/terraform" ]; then
  command -v go >/dev/null || { log "Go is required (https://go.dev/dl)"; exit 1; }
  log "Terraform $version (first build takes a few minutes)"
  rm -rf "$dir"
  build_go_command github.com/hashicorp/terraform "$version" . internal/backend/init/init.go terraform "-s -w -X github.com/hashicorp/terraform/version.dev=no" "$dir"
fi
echo "$dir/terraform"
