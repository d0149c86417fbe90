#!/usr/bin/env bash
# Provides Pulumi's Java language host (pulumi-language-java, github.com/pulumi/pulumi-java v1.34.0) for end-to-end
# tests, and prints the folder that holds it on its last line.
#   1. A cached build in ${PULUMI_CACHE:-$HOME/.cache/pulumi-tf-bridge-ts/pulumi}/langhost-java-v1.34.0/ is reused.
#   2. Else it is built from the module the Go module proxy serves. Its go.mod has `replace` directives, which
#      `go install pkg@version` refuses, so the module is downloaded, copied somewhere writable and built with `go build`.
#   3. Else (no Go, or no Java or Maven to run Java programs with) it exits 3, saying what is missing; tests that need
#      the host then skip with that message (or fail, in CI).
# A host on PATH is not used: the tests pin v1.34.0, whose code generator and SDK version they were written against.
set -euo pipefail
version=v1.34.0
module=github.com/pulumi/pulumi-java
log() { echo "build-java-host: $*" >&2; }

# The host runs `mvn` (and `java`) for the programs it starts; without them the Java tests cannot run here at all.
command -v java >/dev/null 2>&1 || { log "Java (a JDK, 11 or newer) is required to run Pulumi Java programs and is not on PATH"; exit 3; }
command -v mvn >/dev/null 2>&1 || { log "Maven (mvn) is required to build Pulumi Java programs and is not on PATH"; exit 3; }

dir="${PULUMI_CACHE:-$HOME/.cache/pulumi-tf-bridge-ts/pulumi}/langhost-java-$version"
if [ -x "$dir/pulumi-language-java" ]; then
  echo "$dir"
  exit 0
fi
command -v go >/dev/null 2>&1 || { log "Go is required to build pulumi-language-java $version (https://go.dev/dl), and it is not on PATH"; exit 3; }

mkdir -p "$(dirname "$dir")"
tmp="$(mktemp -d "$dir.tmp-XXXXXX")"
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
log "building pulumi-language-java $version"
# `go mod download` needs a module to run in only when GOFLAGS says -mod=vendor or similar; an empty folder avoids any
# go.mod the caller's working directory might be inside.
src="$(cd "$tmp" && GOFLAGS=-mod=mod go mod download -json "$module@$version" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')"
[ -f "$src/go.mod" ] && [ -d "$src/pkg/cmd/pulumi-language-java" ] \
  || { log "$module@$version has no go.mod with pkg/cmd/pulumi-language-java at ${src:-<no Dir>}"; exit 1; }
# The module cache is read-only; the build writes nothing into the sources, but go.sum may need entries added.
cp -R "$src" "$tmp/src"
chmod -R u+w "$tmp/src"
mkdir "$tmp/out"
(cd "$tmp/src" && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath \
  -ldflags "-s -w -X $module/pkg/version.Version=$version" \
  -o "$tmp/out/pulumi-language-java" ./pkg/cmd/pulumi-language-java)
[ -x "$tmp/out/pulumi-language-java" ] || { log "go build produced no pulumi-language-java"; exit 1; }
chmod 0755 "$tmp/out"
# A concurrent build may have got there first; either result is complete.
mv -T "$tmp/out" "$dir" 2>/dev/null || [ -x "$dir/pulumi-language-java" ]
echo "$dir"
