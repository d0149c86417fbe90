#!/usr/bin/env bash
# Provides Pulumi's .NET language host (pulumi-language-dotnet, github.com/pulumi/pulumi-dotnet v3.110.0) for
# end-to-end tests, and prints the folder that holds it on its last line.
#   1. A cached build in ${PULUMI_CACHE:-$HOME/.cache/pulumi-tf-bridge-ts/pulumi}/langhost-dotnet-v3.110.0/ is reused.
#   2. Else it is built from the module the Go module proxy serves. Its go.mod has `replace` directives, which
#      `go install pkg@version` refuses, so the module is downloaded, copied somewhere writable and built with `go build`.
#   3. Else (no Go) it exits 3, saying what is missing; tests that need the host then skip with that message (or fail,
#      in CI).
# Only its code generator is used (`pulumi package gen-sdk --language dotnet`), so no .NET SDK is needed: the host
# would need `dotnet` only to run C# programs, which the tests do not.
# A host on PATH is not used: the tests pin v3.110.0, whose code generator they were written against.
set -euo pipefail
version=v3.110.0
module=github.com/pulumi/pulumi-dotnet/pulumi-language-dotnet/v3
log() { echo "build-dotnet-host: $*" >&2; }

dir="${PULUMI_CACHE:-$HOME/.cache/pulumi-tf-bridge-ts/pulumi}/langhost-dotnet-$version"
if [ -x "$dir/pulumi-language-dotnet" ]; then
  echo "$dir"
  exit 0
fi
command -v go >/dev/null 2>&1 || { log "Go is required to build pulumi-language-dotnet $version (https://go.dev/dl), and it is not on PATH"; exit 3; }

mkdir -p "$(dirname "$dir")"
tmp="$(mktemp -d "$dir.tmp-XXXXXX")"
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
log "building pulumi-language-dotnet $version"
# `go mod download` needs a module to run in only when GOFLAGS says -mod=vendor or similar; an empty folder avoids any
# go.mod the caller's working directory might be inside.
src="$(cd "$tmp" && GOFLAGS=-mod=mod go mod download -json "$module@$version" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')"
# The host's main package is the module's root.
[ -f "$src/go.mod" ] && [ -f "$src/main.go" ] \
  || { log "$module@$version has no go.mod with main.go at ${src:-<no Dir>}"; exit 1; }
# The module cache is read-only; the build writes nothing into the sources, but go.sum may need entries added.
cp -R "$src" "$tmp/src"
chmod -R u+w "$tmp/src"
mkdir "$tmp/out"
(cd "$tmp/src" && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath \
  -ldflags "-s -w -X $module/version.Version=$version" \
  -o "$tmp/out/pulumi-language-dotnet" .)
[ -x "$tmp/out/pulumi-language-dotnet" ] || { log "go build produced no pulumi-language-dotnet"; exit 1; }
chmod 0755 "$tmp/out"
# A concurrent build may have got there first; either result is complete.
mv -T "$tmp/out" "$dir" 2>/dev/null || [ -x "$dir/pulumi-language-dotnet" ]
echo "$dir"
