#!/usr/bin/env bash
# Builds OpenTofu, the oracle of the cross-tests (test/crosstest), from the Go module proxy into the peer cache.
# Its go.mod has a `replace` directive, so `go install module@version` refuses it: the module is downloaded and built
# from a writable copy. Idempotent; prints the binary's path on its last line.
set -euo pipefail
version="${TOFU_VERSION:-v1.12.6}"
cache="${TF_BRIDGE_PEER_CACHE:-$HOME/.cache/pulumi-tf-bridge-ts/peers}"
dir="$cache/opentofu/$version-release"
if [ ! -x "$dir/tofu" ]; then
  command -v go >/dev/null || { echo "build-tofu: Go is required (https://go.dev/dl)" >&2; exit 1; }
  echo "build-tofu: building OpenTofu $version (first build takes a few minutes)" >&2
  mkdir -p "$cache/opentofu"
  work="$(mktemp -d "$cache/opentofu/.tmp-XXXXXX")"
  trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
  src="$(cd "$work" && go mod download -json "github.com/opentofu/opentofu@$version" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const j=JSON.parse(s);if(j.Error){console.error(j.Error);process.exit(1)}console.log(j.Dir)})')"
  cp -r "$src" "$work/src"
  chmod -R u+w "$work/src"
  (cd "$work/src" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X github.com/opentofu/opentofu/version.dev=no" -o "$work/out/tofu" ./cmd/tofu)
  rm -rf "$dir"; mv "$work/out" "$dir"
fi
echo "$dir/tofu"
