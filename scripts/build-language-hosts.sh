#!/usr/bin/env bash
# Provides the Node.js, Python and Go language hosts (pulumi-language-nodejs, -python, -go) for end-to-end tests and
# the demo, and prints the folder that holds them on its last line; the line before it says whose they are.
#   1. Pulumi's own, where a Pulumi install puts them on PATH, unless TF_BRIDGE_OWN_HOSTS=1.
#   2. Else the project's own stand-in (test/peers/pulumi/langhost: one Go executable under the three names), built
#      from the Go module proxy's modules alone into
#      ${PULUMI_CACHE:-$HOME/.cache/pulumi-tf-bridge-ts/pulumi}/langhosts-own-<hash of its sources and go.sum>/.
#   3. Else (no Go to build it with) it exits 3, saying what is missing; tests that need the hosts then skip with that
#      message (in CI they fail).
# Idempotent: a complete cached build is reused; concurrent callers wait for one build.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
hosts=(pulumi-language-nodejs pulumi-language-python pulumi-language-go)
log() { echo "build-language-hosts: $*" >&2; }

complete() { # dir
  local h
  for h in "${hosts[@]}"; do [ -x "$1/$h" ] || return 1; done
}

if [ "${TF_BRIDGE_OWN_HOSTS:-}" != "1" ] && command -v pulumi-language-nodejs >/dev/null 2>&1; then
  onpath="$(dirname "$(command -v pulumi-language-nodejs)")"
  if complete "$onpath"; then
    echo "hosts: Pulumi's, from PATH"
    echo "$onpath"
    exit 0
  fi
fi

wrap="$root/test/peers/pulumi"
command -v go >/dev/null 2>&1 || { log "no language hosts: none on PATH (a Pulumi install puts pulumi-language-nodejs, -python and -go there), and Go (https://go.dev/dl) is needed to build the project's own from test/peers/pulumi/langhost"; exit 3; }
hash="$(cd "$wrap" && find go.mod go.sum langhost -type f ! -name '*.md' ! -name '*_test.go' | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-16)"
# shellcheck source=lib/cache.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/cache.sh"
cache="$pulumi_cache"
dir="$cache/langhosts-own-$hash"
mkdir -p "$cache"
hold_lock "$cache/.langhosts-own.lock"
if ! complete "$dir"; then
  tmp="$(mktemp -d "$dir.tmp-XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  log "building the project's own language hosts (test/peers/pulumi/langhost)"
  start=$SECONDS
  (cd "$wrap" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$tmp/pulumi-language-nodejs" ./langhost)
  ln "$tmp/pulumi-language-nodejs" "$tmp/pulumi-language-python"
  ln "$tmp/pulumi-language-nodejs" "$tmp/pulumi-language-go"
  complete "$tmp" || { log "the build made no ${hosts[*]}"; exit 1; }
  chmod 0755 "$tmp"
  mv -T "$tmp" "$dir"
  trap - EXIT
  log "built in $((SECONDS - start))s"
fi
echo "hosts: the project's own (test/peers/pulumi/langhost)"
echo "$dir"
