#!/usr/bin/env bash
# Provides Pulumi's Node.js, Python and Go language hosts (pulumi-language-nodejs, -python with
# pulumi-language-python-exec, -go) for end-to-end tests, and prints the folder that holds them on its last line.
#   1. Hosts a user already has on PATH (a normal Pulumi install) are used as they are.
#   2. Else they are built from ../shared/pulumi-language-hosts-v3.259 (pulumi/pulumi v3.259.0 sources, the newest to
#      be had here and the SDKs' version, older than the CLI, which runs them as it runs any installed host; the Go
#      module proxy refuses these modules) into
#      ${PULUMI_CACHE:-$HOME/.cache/pulumi-tf-bridge-ts/pulumi}/langhosts-<hash of those sources>/.
#   3. Else it exits 3, saying what is missing; tests that need the hosts then skip with that message.
# Idempotent: a complete cached build is reused.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
hosts=(pulumi-language-nodejs pulumi-language-python pulumi-language-python-exec pulumi-language-go)
log() { echo "build-language-hosts: $*" >&2; }

complete() { # dir
  local h
  for h in "${hosts[@]}"; do [ -x "$1/$h" ] || return 1; done
}

if [ "${TF_BRIDGE_IGNORE_PATH_HOSTS:-}" != "1" ] && command -v pulumi-language-nodejs >/dev/null 2>&1; then
  onpath="$(dirname "$(command -v pulumi-language-nodejs)")"
  if complete "$onpath"; then
    echo "$onpath"
    exit 0
  fi
fi

src="${TF_BRIDGE_LANGUAGE_HOSTS_SRC:-$root/../shared/pulumi-language-hosts-v3.259}"
if [ ! -f "$src/build.sh" ]; then
  log "no Pulumi language hosts: none on PATH, and no sources at $src; install Pulumi (its release archive has pulumi-language-nodejs, -python and -go) or put the hosts on PATH"
  exit 3
fi
command -v go >/dev/null 2>&1 || { log "Go is required to build the language hosts from $src (https://go.dev/dl)"; exit 3; }

hash="$(cd "$src" && find . -type f ! -name '*.md' | LC_ALL=C sort | xargs cat | sha256sum | cut -c1-16)"
dir="${PULUMI_CACHE:-$HOME/.cache/pulumi-tf-bridge-ts/pulumi}/langhosts-$hash"
if complete "$dir"; then
  echo "$dir"
  exit 0
fi
mkdir -p "$(dirname "$dir")"
tmp="$(mktemp -d "$dir.tmp-XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
log "building the language hosts from $src"
bash "$src/build.sh" "$tmp" >/dev/null
complete "$tmp" || { log "$src/build.sh did not produce ${hosts[*]}"; exit 1; }
chmod 0755 "$tmp"
# A concurrent build may have got there first; either result is complete.
mv -T "$tmp" "$dir" 2>/dev/null || complete "$dir"
trap - EXIT
echo "$dir"
