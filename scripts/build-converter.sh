#!/usr/bin/env bash
# Builds Pulumi's Terraform converter plugin (pulumi-converter-terraform, the program `pulumi convert --from terraform`
# runs) from its sources in ../shared/pulumi-converter-terraform (the Go module proxy refuses that module), for the
# convert end-to-end test. A test peer only: users get the converter from Pulumi. Cached under
# ~/.cache/pulumi-tf-bridge-ts/converter/<hash of the sources>, so a change to them builds anew; about 2.5 minutes on
# 2 cores the first time. Idempotent; prints the directory to put on PATH (it holds pulumi-converter-terraform).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
src="${PULUMI_CONVERTER_TERRAFORM_SRC:-$root/../shared/pulumi-converter-terraform}"
cache="${TF_BRIDGE_CONVERTER_CACHE:-$HOME/.cache/pulumi-tf-bridge-ts/converter}"
log() { echo "build-converter: $*" >&2; }
[ -f "$src/build.sh" ] || { log "no converter sources at $src (set PULUMI_CONVERTER_TERRAFORM_SRC to the pulumi-converter-terraform folder)"; exit 1; }
# The key: every file of the sources, by path and content, so any edit (or a new pin in go.sum) rebuilds.
key="$(cd "$src" && find . -type f ! -path './.git/*' -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)"
dir="$cache/$key"
mkdir -p "$cache"
# One build at a time: concurrent callers (test runs in several worktrees) wait here and then find the binary made.
exec 9>"$cache/.build.lock"
flock 9
if [ ! -x "$dir/pulumi-converter-terraform" ]; then
  command -v go >/dev/null || { log "Go is required (https://go.dev/dl)"; exit 1; }
  log "building pulumi-converter-terraform from $src (the first build takes about 2.5 minutes)"
  work="$(mktemp -d "$cache/.tmp-XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  start=$SECONDS
  bash "$src/build.sh" "$work/out" >/dev/null
  [ -x "$work/out/pulumi-converter-terraform" ] || { log "build.sh made no pulumi-converter-terraform"; exit 1; }
  rm -rf "$dir"; mv "$work/out" "$dir"
  log "built in $((SECONDS - start))s"
fi
echo "$dir"
