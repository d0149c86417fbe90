#!/usr/bin/env bash
# Builds the real Terraform providers pinned in test/peers/pins.json, the reference bridge (Pulumi's Go
# pulumi-terraform-provider, test/peers/reference), OpenTofu (scripts/build-tofu.sh) and Terraform (scripts/build-terraform.sh,
# a test oracle only), into a cache outside the clone. A pin with "build": "module-copy" (kreuzwerker/docker, whose go.mod
# declares an older path) is built from a writable copy of its module zip, as OpenTofu is.
# The peers under "transports" are other builds of an in-repo provider: with go-plugin's Windows listener (a TCP socket
# on 127.0.0.1, "listener": "tcp"), or for another operating system ("goos"; linked with that system's file suffix).
# Idempotent: a binary that already exists for its pinned version is not rebuilt.
# Prints the directory of links to this checkout's binaries (<repo>/.peers) on its last line; the reference is
# .peers/reference/pulumi-resource-terraform-provider, OpenTofu .peers/tofu, Terraform .peers/terraform.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=lib/cache.sh
. "$root/scripts/lib/cache.sh"
cache="$peer_cache"
mkdir -p "$cache"
# One run at a time over the shared cache: two runs building the same peer would race on its directory (one's `rm -rf`
# under the other's `mv`); the second waits here, then finds every binary built and only links them.
hold_lock "$cache/.build-peers.lock"
command -v go >/dev/null || { echo "build-peers: Go is required (https://go.dev/dl)" >&2; exit 1; }

# go-plugin chooses its listener by the operating system it was compiled for (serverListener in server.go: TCP on
# Windows, a Unix socket elsewhere), and no ServeConfig field or environment variable changes that. A Go workspace
# replaces the go-plugin the provider's go.sum pins with a copy of that same version in which that one condition holds
# everywhere, so the provider runs go-plugin's own Windows path (serverListener_tcp, which honours PLUGIN_MIN_PORT and
# PLUGIN_MAX_PORT) here. (A build overlay cannot do it: Go refuses to overlay files in the module cache.)
# Prints the GOWORK value to build with.
tcp_workspace() {
  local src="$1" tmp="$2" dir
  dir="$(cd "$src" && go list -m -f '{{.Dir}}' github.com/hashicorp/go-plugin)"
  [ -f "$dir/server.go" ] || { echo "build-peers: go-plugin's server.go not found under '$dir'" >&2; return 1; }
  local cond='if runtime.GOOS == "windows" {'
  [ "$(grep -cF "$cond" "$dir/server.go")" = 1 ] ||
    { echo "build-peers: $dir/server.go no longer has exactly one '$cond'; update tcp_workspace in $0" >&2; return 1; }
  cp -R "$dir" "$tmp/go-plugin"
  chmod -R u+w "$tmp/go-plugin"
  sed -i 's/if runtime\.GOOS == "windows" {/if true || runtime.GOOS == "windows" {/' "$tmp/go-plugin/server.go"
  (cd "$tmp" && go work init "$src" && go work edit -replace "github.com/hashicorp/go-plugin=$tmp/go-plugin") >&2
  echo "$tmp/go.work"
}

# name module version source listener goos build, one line each, from pins.json (the real peers, the oracle corpus's
# schema-driven ones, the other builds of in-repo providers, then the infrastructure providers)
node -e '
  const j = require(process.argv[1]);
  for (const [n, v] of Object.entries({ ...j.providers, ...j.oracle, ...j.transports, ...j.infrastructure })) {
    if (typeof v === "object") console.log([n, v.module ?? "-", v.version ?? "-", v.source ?? "-", v.listener ?? "-", v.goos ?? "-", v.build ?? "-"].join(" "));
  }
' "$root/test/peers/pins.json" | while read -r name module version source listener goos build; do
  exe=""
  [ "$goos" = windows ] && exe=.exe
  if [ "$source" != "-" ]; then
    # A provider whose source lives in this repo: key the cache on the hash of its sources (and how it is built).
    variant=""
    [ "$listener$goos" != -- ] && variant="listener=$listener goos=$goos"
    hash="$(cd "$root/$source" && { cat $(find . -type f \( -name '*.go' -o -name go.mod -o -name go.sum \) | sort); echo -n "$variant"; } | sha256sum | cut -c1-16)"
    dir="$cache/$name/src-$hash"
    if [ ! -x "$dir/terraform-provider-$name$exe" ]; then
      echo "build-peers: building $name from $source (listener: $listener, GOOS: $goos)" >&2
      tmp="$(mktemp -d "$cache/.tmp-$name-XXXXXX")"
      build_env=(CGO_ENABLED=0)
      if [ "$listener" = tcp ]; then work="$(tcp_workspace "$root/$source" "$tmp")"; build_env+=(GOWORK="$work"); fi
      [ "$goos" != "-" ] && build_env+=(GOOS="$goos" GOARCH=amd64)
      (cd "$root/$source" && env "${build_env[@]}" go build -trimpath -o "$tmp/terraform-provider-$name$exe" .)
      rm -rf "$tmp/go-plugin" "$tmp"/go.work*
      mkdir -p "$(dirname "$dir")"; rm -rf "$dir"; mv "$tmp" "$dir"
    fi
  else
    dir="$cache/$name/$version"
    if [ ! -x "$dir/terraform-provider-$name" ]; then
      tmp="$(mktemp -d "$cache/.tmp-$name-XXXXXX")"
      if [ "$build" = module-copy ]; then
        # The module's go.mod declares another path (kreuzwerker/docker still says terraform-providers/…), so `go
        # install` refuses it: build a writable copy of the module zip's folder instead.
        echo "build-peers: building $module@$version from a copy of the module (a few minutes)" >&2
        moddir="$(cd "$tmp" && go mod download -json "$module@$version" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const j=JSON.parse(s);if(j.Error){console.error(j.Error);process.exit(1)}console.log(j.Dir)})')"
        cp -R "$moddir" "$tmp/src"
        chmod -R u+w "$tmp/src"
        (cd "$tmp/src" && CGO_ENABLED=0 go build -trimpath -o "$tmp/terraform-provider-$name" .)
        rm -rf "$tmp/src"
      else
        echo "build-peers: go install $module@$version" >&2
        CGO_ENABLED=0 GOBIN="$tmp" GOFLAGS=-trimpath go install "$module@$version"
      fi
      mkdir -p "$(dirname "$dir")"; rm -rf "$dir"; mv "$tmp" "$dir"
    fi
  fi
  # Links live in this checkout, not in the shared cache: two checkouts building different sources must not
  # re-point each other's providers.
  mkdir -p "$root/.peers"
  ln -sfn "$dir/terraform-provider-$name$exe" "$root/.peers/terraform-provider-$name$exe"
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
