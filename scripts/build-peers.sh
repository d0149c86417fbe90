#!/usr/bin/env bash
# Builds the real Terraform providers pinned in test/peers/pins.json into a cache outside the clone.
# Idempotent: a provider whose binary already exists for its pinned version is not rebuilt.
# Prints the directory of links to this checkout's binaries (<repo>/.peers) on its last line.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${TF_BRIDGE_PEER_CACHE:-$HOME/.cache/pulumi-tf-bridge-ts/peers}"
mkdir -p "$cache"
command -v go >/dev/null || { echo "build-peers: Go is required (https://go.dev/dl)" >&2; exit 1; }

# name module version source, one line each, from pins.json
node -e '
  const p = require(process.argv[1]).providers;
  for (const [n, v] of Object.entries(p)) console.log([n, v.module ?? "-", v.version ?? "-", v.source ?? "-"].join(" "));
' "$root/test/peers/pins.json" | while read -r name module version source; do
  if [ "$source" != "-" ]; then
    # A provider whose source lives in this repo: key the cache on the hash of its sources.
    hash="$(cd "$root/$source" && cat $(find . -type f \( -name '*.go' -o -name go.mod -o -name go.sum \) | sort) | sha256sum | cut -c1-16)"
    dir="$cache/$name/src-$hash"
    if [ ! -x "$dir/terraform-provider-$name" ]; then
      echo "build-peers: building $name from $source" >&2
      tmp="$(mktemp -d "$cache/.tmp-$name-XXXXXX")"
      (cd "$root/$source" && CGO_ENABLED=0 go build -trimpath -o "$tmp/terraform-provider-$name" .)
      mkdir -p "$(dirname "$dir")"; rm -rf "$dir"; mv "$tmp" "$dir"
    fi
  else
    dir="$cache/$name/$version"
    if [ ! -x "$dir/terraform-provider-$name" ]; then
      echo "build-peers: go install $module@$version" >&2
      tmp="$(mktemp -d "$cache/.tmp-$name-XXXXXX")"
      CGO_ENABLED=0 GOBIN="$tmp" GOFLAGS=-trimpath go install "$module@$version"
      mkdir -p "$(dirname "$dir")"; rm -rf "$dir"; mv "$tmp" "$dir"
    fi
  fi
  # Links live in this checkout, not in the shared cache: two checkouts building different sources must not
  # re-point each other's providers.
  mkdir -p "$root/.peers"
  ln -sfn "$dir/terraform-provider-$name" "$root/.peers/terraform-provider-$name"
done
echo "$root/.peers"
