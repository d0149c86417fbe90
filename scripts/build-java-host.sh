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
log_prefix=build-java-host
log() { echo "$log_prefix: $*" >&2; }
# shellcheck source=lib/cache.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/cache.sh"
# shellcheck source=lib/go-command.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/go-command.sh"

# The host runs `mvn` (and `java`) for the programs it starts; without them the Java tests cannot run here at all.
command -v java >/dev/null 2>&1 || { log "Java (a JDK, 11 or newer) is required to run Pulumi Java programs and is not on PATH"; exit 3; }
command -v mvn >/dev/null 2>&1 || { log "Maven (mvn) is required to build Pulumi Java programs and is not on PATH"; exit 3; }

dir="$pulumi_cache/langhost-java-$version"
if [ -x "$dir/pulumi-language-java" ]; then
  echo "$dir"
  exit 0
fi
command -v go >/dev/null 2>&1 || { log "Go is required to build pulumi-language-java $version (https://go.dev/dl), and it is not on PATH"; exit 3; }

build_go_command "$module" "$version" ./pkg/cmd/pulumi-language-java pkg/cmd/pulumi-language-java/ pulumi-language-java \
  "-s -w -X $module/pkg/version.Version=$version" "$dir"
echo "$dir"
