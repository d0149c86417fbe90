#!/usr/bin/env bash
# Builds OpenTofu, the oracle of the cross-tests (test/crosstest), from the Go module proxy into the peer cache.
# Its go.mod has a `replace` directive, so `go install module@version` refuses it: the module is downloaded and built
# from a writable copy (scripts/lib/go-command.sh). Idempotent; prints the binary's path on its last line.
set -euo pipefail
lib="$(dirname "${BASH_SOURCE[0]}")/lib"
# shellcheck source=lib/cache.sh
. "$lib/cache.sh"
# shellcheck source=lib/go-command.sh
. "$lib/go-command.sh"
log_prefix=build-tofu
version="${TOFU_VERSION:-v1.12.6}"
dir="$peer_cache/opentofu/$version-release"
# One build at a time: concurrent callers wait here and then find the binary made.
hold_lock "$peer_cache/opentofu/.build.lock"
if [ ! -x "$dir/tofu" ]; then
  command -v go >/dev/null || { echo "$log_prefix: Go is required (https://go.dev/dl)" >&2; exit 1; }
  echo "$log_prefix: OpenTofu $version (first build takes a few minutes)" >&2
  rm -rf "$dir"
  build_go_command github.com/opentofu/opentofu "$version" ./cmd/tofu cmd/tofu/ tofu "-s -w -X github.com/opentofu/opentofu/version.dev=no" "$dir"
fi
echo "$dir/tofu"
