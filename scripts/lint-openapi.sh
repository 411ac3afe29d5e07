#!/usr/bin/env bash
# Lints the OpenAPI document the server publishes (redocly.yaml: recommended rules, 0 errors wanted).
set -euo pipefail
cd "$(dirname "$0")/.."
doc=$(mktemp --suffix=.json)
trap 'rm -f "$doc"' EXIT
node --import tsx scripts/openapi.ts > "$doc"
REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true npx --no-install redocly lint --config redocly.yaml "$doc"
