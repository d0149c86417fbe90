#!/usr/bin/env bash
# The one test command (the README's and CI's): installs npm packages, builds the pinned real providers, runs every test.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  # npm ci rejects lockfiles written here (npm 11 records optional platform packages without versions);
  # npm install still installs exactly what the lock pins.
  npm install --no-audit --no-fund
fi
bash scripts/build-peers.sh >/dev/null
npx tsc -p tsconfig.json --noEmit
bash scripts/lint.sh
npx vitest run "$@"
