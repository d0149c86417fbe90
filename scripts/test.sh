#!/usr/bin/env bash
# The one test command (the README's and CI's): installs npm packages, builds the pinned real providers, runs every test.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  # npm install rather than npm ci: it keeps a node_modules that is already there, and installs exactly what the
  # lock pins (the lock lists every platform's optional packages, so it is left unchanged: test/unit/package-lock.test.ts).
  npm install --no-audit --no-fund
fi
# What some tests need beyond Node and Go; without it they are skipped, and say so (in CI they fail instead: .ci/run).
if ! command -v tinyproxy >/dev/null 2>&1 && [ ! -x /usr/bin/tinyproxy ]; then
  echo "test.sh: tinyproxy is not installed, so the proxy tests will be skipped; to run them: sudo apt-get install tinyproxy (or: bash .ci/run, which installs it)" >&2
fi
if ! command -v wine >/dev/null 2>&1; then
  echo "test.sh: Wine is not installed, so the tests of Windows builds of providers will be skipped; to run them: sudo apt-get install wine64 (or: bash .ci/run, which installs it)" >&2
fi
# Every temporary file of the run (test directories, Go's build directories, the CLI's and the compilers') goes under
# one directory removed when the run ends, however it ends: what tests and killed tools left behind filled /tmp over
# repeated runs (38 GB on a developer machine).
run_tmp="$(mktemp -d "${TMPDIR:-/tmp}/tfbridge-test-XXXXXX")"
trap 'rm -rf "$run_tmp"' EXIT
export TMPDIR="$run_tmp"
bash scripts/build-peers.sh >/dev/null
npx tsc -p tsconfig.json --noEmit
bash scripts/lint.sh
npx vitest run "$@"
