#!/usr/bin/env bash
# Builds actionlint, the linter that checks .github/workflows/*.yml (test/unit/release-workflow.test.ts), from the Go
# module proxy into the tool cache outside the clone. Idempotent; prints the binary's path on its last line.
set -euo pipefail
version="${ACTIONLINT_VERSION:-v1.7.12}"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-tf-bridge-ts/actionlint/$version"
if [ ! -x "$cache/actionlint" ]; then
  command -v go >/dev/null || { echo "build-actionlint: Go is required to build actionlint $version (https://go.dev/dl)" >&2; exit 1; }
  echo "build-actionlint: building actionlint $version" >&2
  mkdir -p "$(dirname "$cache")"
  # Built beside and renamed into place, so a concurrent caller sees the binary whole or not at all.
  tmp="$(mktemp -d "$cache.tmp-XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  CGO_ENABLED=0 GOBIN="$tmp" go install -trimpath -ldflags "-s -w -X github.com/rhysd/actionlint.version=$version" "github.com/rhysd/actionlint/cmd/actionlint@$version" >&2
  [ -x "$tmp/actionlint" ] || { echo "build-actionlint: go install produced no actionlint" >&2; exit 1; }
  mv -T "$tmp" "$cache" 2>/dev/null || [ -x "$cache/actionlint" ] || { echo "build-actionlint: could not move the build to $cache" >&2; exit 1; }
fi
echo "$cache/actionlint"
