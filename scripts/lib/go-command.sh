# Builds a command of a Go module whose go.mod has `replace` directives (which `go install module@version` refuses),
# as the Go module proxy serves it; sourced by scripts/build-*-host.sh, which say why they need the command.
#
# build_go_command MODULE VERSION PACKAGE EXPECT BINARY LDFLAGS DEST
#   The module is downloaded, copied somewhere writable (the module cache is read-only; the build writes nothing into
#   the sources, but go.sum may need entries added) and PACKAGE (`./pkg/cmd/x`, `.`) built with `go build` as BINARY
#   into DEST, which appears whole or not at all. EXPECT is a file the module must hold (`main.go`), or a folder when
#   it ends in `/` (`pkg/cmd/x/`).
#   Messages go to stderr prefixed with `$log_prefix`; failures exit 1. A caller that must change the sources before the
#   build defines `go_command_edit SRC` (run in the writable copy), and one that checks the result `go_command_check
#   BINARY` (run on the built binary before it is moved into DEST); go.sum entries the build needs are added (-mod=mod).
build_go_command() {
  local module=$1 version=$2 package=$3 expect=$4 binary=$5 ldflags=$6 dest=$7
  mkdir -p "$(dirname "$dest")"
  go_command_tmp="$(mktemp -d "$dest.tmp-XXXXXX")"
  trap 'chmod -R u+w "$go_command_tmp" 2>/dev/null; rm -rf "$go_command_tmp"' EXIT
  local tmp=$go_command_tmp src
  echo "$log_prefix: building $binary $version" >&2
  # `go mod download` needs a module to run in only when GOFLAGS says -mod=vendor or similar; an empty folder avoids any
  # go.mod the caller's working directory might be inside.
  src="$(cd "$tmp" && GOFLAGS=-mod=mod go mod download -json "$module@$version" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')"
  local kind=-f
  [ "${expect%/}" = "$expect" ] || kind=-d
  [ -f "$src/go.mod" ] && [ "$kind" "$src/$expect" ] \
    || { echo "$log_prefix: $module@$version has no go.mod with $expect at ${src:-<no Dir>}" >&2; exit 1; }
  cp -R "$src" "$tmp/src"
  chmod -R u+w "$tmp/src"
  mkdir "$tmp/out"
  if declare -F go_command_edit >/dev/null; then go_command_edit "$tmp/src"; fi
  (cd "$tmp/src" && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath -ldflags "$ldflags" -o "$tmp/out/$binary" "$package")
  [ -x "$tmp/out/$binary" ] || { echo "$log_prefix: go build produced no $binary" >&2; exit 1; }
  if declare -F go_command_check >/dev/null; then go_command_check "$tmp/out/$binary"; fi
  chmod 0755 "$tmp/out"
  # A concurrent build may have got there first; either result is complete.
  mv -T "$tmp/out" "$dest" 2>/dev/null || [ -x "$dest/$binary" ]
}
