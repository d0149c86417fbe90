#!/usr/bin/env bash
# `npm run lint`: typescript-eslint with type-aware rules (eslint.config.mjs), and actionlint over the GitHub Actions
# workflows. eslint's packages live in tools/lint, with the TypeScript 6 JavaScript API typescript-eslint needs (the
# project compiles with TypeScript 7, which has none).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ ! -d tools/lint/node_modules ] || [ tools/lint/package-lock.json -nt tools/lint/node_modules/.package-lock.json ]; then
  npm --prefix tools/lint install --no-audit --no-fund >/dev/null
fi
# The GitHub Actions workflows (.github/workflows/release.yml cannot run here): actionlint, built from the Go module proxy.
actionlint="$(bash scripts/build-actionlint.sh | tail -n 1)"
"$actionlint" -no-color -oneline .github/workflows/*.yml
exec tools/lint/node_modules/.bin/eslint --max-warnings 0 "${@:-.}"
