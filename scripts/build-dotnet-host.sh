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
log_prefix=build-dotnet-host
log() { echo "$log_prefix: $*" >&2; }
# shellcheck source=lib/cache.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/cache.sh"
# shellcheck source=lib/go-command.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/go-command.sh"

dir="$pulumi_cache/langhost-dotnet-$version"
if [ -x "$dir/pulumi-language-dotnet" ]; then
  echo "$dir"
  exit 0
fi
command -v go >/dev/null 2>&1 || { log "Go is required to build pulumi-language-dotnet $version (https://go.dev/dl), and it is not on PATH"; exit 3; }

# The host's main package is the module's root.
build_go_command "$module" "$version" . main.go pulumi-language-dotnet "-s -w -X $module/version.Version=$version" "$dir"
echo "$dir"
