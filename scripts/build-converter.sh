#!/usr/bin/env bash
# Provides pulumi-converter-terraform (the plugin `pulumi convert --from terraform` runs) for end-to-end tests, and
# prints the folder that holds it on its last line; the line before it says whose it is.
#   1. Pulumi's own where it is installed: on PATH, else in Pulumi's plugin folder
#      (${PULUMI_HOME:-~/.pulumi}/plugins/converter-terraform-v<version>/, the highest version), unless
#      TF_BRIDGE_OWN_CONVERTER=1.
#   2. Else the project's stand-in that replays recorded conversions (test/peers/pulumi/converter; the recordings are
#      ${PULUMI_CONVERTER_RECORDINGS:-../shared/converter-recordings beside the repository}, built into the binary as
#      its default), built from the Go module proxy's modules alone into
#      ${PULUMI_CACHE:-$HOME/.cache/pulumi-tf-bridge-ts/pulumi}/converter-own-<hash of its sources and go.sum>/.
#   3. Else (no Go to build it with) it exits 3, saying what is missing.
# Pulumi's converter is served by no registry these machines reach, so here (and in CI here) it is the stand-in.
# Idempotent: a cached build is reused; concurrent callers wait for one build.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin=pulumi-converter-terraform
# shellcheck source=lib/cache.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/cache.sh"
cache="$pulumi_cache"
log() { echo "build-converter: $*" >&2; }

if [ "${TF_BRIDGE_OWN_CONVERTER:-}" != "1" ]; then
  # Our own stand-in on PATH (a test's shell) is not Pulumi's.
  if onpath="$(command -v "$bin" 2>/dev/null)" && [[ "$onpath" != "$cache"/converter-own-* ]]; then
    echo "converter: Pulumi's, from PATH"
    dirname "$onpath"
    exit 0
  fi
  plugins="${PULUMI_HOME:-$HOME/.pulumi}/plugins"
  installed="$(find "$plugins" -mindepth 2 -maxdepth 2 -path "$plugins/converter-terraform-v*/$bin" ! -path '*.partial/*' -perm -u+x 2>/dev/null | sort -V | tail -n 1 || true)"
  if [ -n "$installed" ]; then
    echo "converter: Pulumi's, installed in $plugins"
    dirname "$installed"
    exit 0
  fi
fi

wrap="$root/test/peers/pulumi"
recordings="${PULUMI_CONVERTER_RECORDINGS:-$(cd "$root/.." && pwd)/shared/converter-recordings}"
command -v go >/dev/null 2>&1 || { log "no Terraform converter: Pulumi's is not installed (on PATH or in Pulumi's plugin folder), and Go (https://go.dev/dl) is needed to build the project's stand-in from test/peers/pulumi/converter"; exit 3; }
# The recordings folder is built in, so it is part of the key; the recordings themselves are read at each conversion.
hash="$( { (cd "$wrap" && find go.mod go.sum converter -type f ! -name '*.md' ! -name '*_test.go' | LC_ALL=C sort | xargs sha256sum); echo "$recordings"; } | sha256sum | cut -c1-16)"
dir="$cache/converter-own-$hash"
mkdir -p "$cache"
hold_lock "$cache/.converter-own.lock"
if [ ! -x "$dir/$bin" ]; then
  tmp="$(mktemp -d "$dir.tmp-XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  log "building the project's stand-in for Pulumi's Terraform converter (test/peers/pulumi/converter)"
  start=$SECONDS
  (cd "$wrap" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.defaultRecordings=$recordings" -o "$tmp/$bin" ./converter)
  [ -x "$tmp/$bin" ] || { log "the build made no $bin"; exit 1; }
  chmod 0755 "$tmp"
  mv -T "$tmp" "$dir"
  trap - EXIT
  log "built in $((SECONDS - start))s"
fi
[ -d "$recordings" ] || log "warning: no recordings at $recordings: the stand-in will refuse every conversion (set PULUMI_CONVERTER_RECORDINGS)"
echo "converter: the project's stand-in replaying recordings (test/peers/pulumi/converter, $recordings)"
echo "$dir"
