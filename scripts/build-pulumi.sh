#!/usr/bin/env bash
# Builds the real Pulumi CLI and the language hosts that the Go module proxy serves, for
# end-to-end tests, into a cache outside the clone:
#   ${PULUMI_CACHE:-$HOME/.cache/pulumi-tf-bridge-ts/pulumi}/<pulumi version>/bin-<stamp>/
# Versions are pinned by the wrapper modules in test/peers/pulumi (see its README.md):
#   pulumi                          github.com/pulumi/pulumi/pkg/v3 (test/peers/pulumi/go.mod)
#   pulumi-language-yaml            github.com/pulumi/pulumi-yaml   (test/peers/pulumi/yaml/go.mod)
#   pulumi-resource-pulumi-nodejs   shell shim from the sdk/v3 module (dynamic providers)
#   pulumi-engineclient             test/peers/pulumi/engineclient: Check/Create/Diff/Update/Read/Delete over the engine's own gRPC
#                                   stack (grpc-go, pulumirpc), for the per-operation benchmark
# Pulumi's pulumi-language-nodejs, -python and -go are not built here: the module proxy serves no version of their
# modules; scripts/build-language-hosts.sh takes Pulumi's from PATH, else builds the project's own
# (test/peers/pulumi/langhost).
#
# Idempotent: <stamp> hashes the wrapper modules and engineclient/main.go, so each bin directory
# is never changed once made, and worktrees whose engineclients differ keep one each instead of
# rebuilding each other's. When only engineclient/main.go differs from an existing bin directory,
# its pulumi and language host are linked from there and only the engine client is built
# (seconds, not minutes). A bin directory is built in a temporary directory and renamed into
# place. Prints the bin directory on its last line.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
wrap="$root/test/peers/pulumi"
log() { echo "build-pulumi: $*" >&2; }
die() { log "$*"; exit 1; }

# The pinned version, read from the wrapper's go.mod without running go.
modversion() { # gomod module
  awk -v m="$2" '$1 == m { print $2; exit } $1 == "require" && $2 == m { print $3; exit }' "$1"
}
version="$(modversion "$wrap/go.mod" github.com/pulumi/pulumi/pkg/v3)"
sdkversion="$(modversion "$wrap/go.mod" github.com/pulumi/pulumi/sdk/v3)"
yamlversion="$(modversion "$wrap/yaml/go.mod" github.com/pulumi/pulumi-yaml)"
[ -n "$version" ] && [ "$version" = "$sdkversion" ] \
  || die "test/peers/pulumi/go.mod must require pulumi/pkg/v3 and pulumi/sdk/v3 at the same version (got '$version' and '$sdkversion')"
[ -n "$yamlversion" ] || die "test/peers/pulumi/yaml/go.mod does not require github.com/pulumi/pulumi-yaml"

# shellcheck source=lib/cache.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/cache.sh"
cache="$pulumi_cache"
dir="$cache/$version"
tools=(pulumi pulumi-language-yaml pulumi-resource-pulumi-nodejs pulumi-engineclient)
heavy=(pulumi pulumi-language-yaml pulumi-resource-pulumi-nodejs)
# Rebuild when the wrapper modules change (e.g. a new pulumi-yaml pin), not only when a binary is missing.
# The heavy stamp covers what the slow tools are built from; the stamp adds the engine client's source.
heavystamp="$(cat "$wrap/go.mod" "$wrap/go.sum" "$wrap/yaml/go.mod" "$wrap/yaml/go.sum" | sha256sum | cut -c1-16)"
stamp="$( (cat "$wrap/go.mod" "$wrap/go.sum" "$wrap/yaml/go.mod" "$wrap/yaml/go.sum" "$wrap/engineclient/main.go") | sha256sum | cut -c1-16)"
bin="$dir/bin-$stamp"

complete() { # bindir
  local t
  for t in "${tools[@]}"; do [ -x "$1/$t" ] || return 1; done
  [ "$(cat "$1/.stamp" 2>/dev/null)" = "$stamp" ]
}

if complete "$bin"; then
  echo "$bin"
  exit 0
fi

command -v go >/dev/null 2>&1 || die "Go is required to build the Pulumi CLI (https://go.dev/dl), and it is not on PATH"
# Each wrapper module declares the Go its tools need (pulumi v3.276.0: go 1.26.6); the newer of the two is required,
# checked here because an older go would otherwise try to download a toolchain mid-build.
need="$(for m in "$wrap/go.mod" "$wrap/yaml/go.mod"; do awk '$1 == "go" { print $2; exit }' "$m"; done | sort -V | tail -n1)"
have="$(go env GOVERSION | sed 's/^go//')"
if [ "$(printf '%s\n%s\n' "$need" "$have" | sort -V | head -n1)" != "$need" ]; then
  die "Go $need or newer is required to build pulumi $version (found go$have)"
fi

mkdir -p "$dir"
# One build per version at a time: concurrent callers (test runs in several worktrees) wait here, then find the bin
# directory complete or share its slow tools, instead of each compiling pulumi on the same cores.
hold_lock "$dir/.build.lock"
if complete "$bin"; then
  echo "$bin"
  exit 0
fi
tmp="$(mktemp -d "$dir/.tmp-bin-XXXXXX")"
chmod 0755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
export CGO_ENABLED=0
start=$SECONDS

# A finished bin directory built from the same wrapper modules, whose slow tools can be shared (hard links: each bin
# directory is immutable, and removing one leaves the others' links intact).
donor=""
for d in "$dir"/bin-*; do
  [ -d "$d" ] && [ "$(cat "$d/.heavy-stamp" 2>/dev/null)" = "$heavystamp" ] || continue
  ok=1
  for t in "${heavy[@]}"; do [ -x "$d/$t" ] || ok=0; done
  [ "$ok" = 1 ] && donor="$d" && break
done

if [ -n "$donor" ]; then
  log "reusing pulumi and pulumi-language-yaml from $donor"
  for t in "${heavy[@]}"; do cp -l "$donor/$t" "$tmp/$t" 2>/dev/null || cp -p "$donor/$t" "$tmp/$t"; done
else
  log "building pulumi $version (first build takes a few minutes)"
  (cd "$wrap" && go build -trimpath \
    -ldflags "-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=$version" \
    -o "$tmp/pulumi" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi)
  log "building pulumi-language-yaml $yamlversion"
  (cd "$wrap/yaml" && go build -trimpath \
    -ldflags "-s -w -X github.com/pulumi/pulumi-yaml/pkg/version.Version=$yamlversion" \
    -o "$tmp/pulumi-language-yaml" github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml)
  # The dynamic-provider shim that ships in pulumi's release archives (sdk/nodejs/dist); the
  # module cache holds it read-only and without the executable bit.
  sdkdir="$(cd "$wrap" && go list -m -f '{{.Dir}}' github.com/pulumi/pulumi/sdk/v3)"
  install -m 0755 "$sdkdir/nodejs/dist/pulumi-resource-pulumi-nodejs" "$tmp/pulumi-resource-pulumi-nodejs"
fi

log "building pulumi-engineclient"
(cd "$wrap" && go build -trimpath -ldflags "-s -w" -o "$tmp/pulumi-engineclient" ./engineclient)

"$tmp/pulumi" version >/dev/null || die "the freshly built pulumi does not run"
echo "$heavystamp" >"$tmp/.heavy-stamp"
echo "$stamp" >"$tmp/.stamp"

# One rename puts the bin directory in place; if a concurrent run got there first, keep its result.
if ! mv -T "$tmp" "$bin" 2>/dev/null; then
  complete "$bin" || die "could not move the new binaries into $bin"
fi
log "built in $((SECONDS - start))s"
echo "$bin"
