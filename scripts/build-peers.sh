#!/usr/bin/env bash
# Builds the real Terraform providers pinned in test/peers/pins.json, the reference bridge (Pulumi's Go
# pulumi-terraform-provider, test/peers/reference), OpenTofu (scripts/build-tofu.sh) and Terraform (scripts/build-terraform.sh,
# a test oracle only), into a cache outside the clone.
# Idempotent: a binary that already exists for its pinned version is not rebuilt.
# Prints the directory of links to this checkout's binaries (<repo>/.peers) on its last line; the reference is
# .peers/reference/pulumi-resource-terraform-provider, OpenTofu .peers/tofu, Terraform .peers/terraform.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${TF_BRIDGE_PEER_CACHE:-$HOME/.cache/pulumi-tf-bridge-ts/peers}"
mkdir -p "$cache"
command -v go >/dev/null || { echo "build-peers: Go is required (https://go.dev/dl)" >&2; exit 1; }

# name module version source, one line each, from pins.json (the real peers, then the oracle corpus's schema-driven ones)
node -e '
  const j = require(process.argv[1]);
  for (const [n, v] of Object.entries({ ...j.providers, ...j.oracle })) {
    if (typeof v === "object") console.log([n, v.module ?? "-", v.version ?? "-", v.source ?? "-"].join(" "));
  }
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
# The reference bridge: pulumi-terraform-bridge/v3's dynamic/ at the version test/peers/reference/go.mod pins, stamped
# with our own version so that both plugins answer to the same `pulumi-resource-terraform-provider` <version>.
ref="$root/test/peers/reference"
ourversion="$(node -p 'require(process.argv[1]).version' "$root/package.json")"
refhash="$(cat "$ref/go.mod" "$ref/go.sum" | sha256sum | cut -c1-16)"
dir="$cache/reference/$ourversion-$refhash"
if [ ! -x "$dir/pulumi-resource-terraform-provider" ]; then
  echo "build-peers: building the reference bridge (first build takes a few minutes)" >&2
  tmp="$(mktemp -d "$cache/.tmp-reference-XXXXXX")"
  (cd "$ref" && CGO_ENABLED=0 go build -trimpath \
    -ldflags "-s -w -X github.com/pulumi/pulumi-terraform-bridge/v3/dynamic/version.version=$ourversion" \
    -o "$tmp/pulumi-resource-terraform-provider" github.com/pulumi/pulumi-terraform-bridge/v3/dynamic)
  mkdir -p "$(dirname "$dir")"; rm -rf "$dir"; mv "$tmp" "$dir"
fi
ln -sfn "$dir" "$root/.peers/reference"
# OpenTofu, the oracle of test/crosstest.
ln -sfn "$(bash "$root/scripts/build-tofu.sh" | tail -n 1)" "$root/.peers/tofu"
# Terraform, the oracle of Terraform 1.14's actions, list resources and generated configuration, which OpenTofu lacks.
ln -sfn "$(bash "$root/scripts/build-terraform.sh" | tail -n 1)" "$root/.peers/terraform"
echo "$root/.peers"
