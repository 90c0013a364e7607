#!/usr/bin/env bash
# The one entry point behind the npm scripts: prepares the machine (scripts/env.sh), then
#   start   build the dashboard when sources changed, start Quire (API + dashboard)
#   dev     the same with Next in dev mode
#   test    every test: unit, API on PGlite and PostgreSQL, e2e in Chromium
#   check   lint + typecheck + layering check (scripts/check-layers.ts) + unit tests (the quick local gate)
#   worker  a standalone queue worker (scaled-out mode)
#   cli     the admin CLI
#   run F   run a TypeScript file (benchmarks, accuracy scripts)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cmd="${1:-start}"; shift || true
NODE_RUN=(node --import tsx --import ./scripts/node-hooks.mjs)

build_if_stale() {
  local h
  h=$(find app components lib public next.config.js package-lock.json tailwind.config.ts postcss.config.mjs tsconfig.json \
        -type f \( -name '*.ts' -o -name '*.tsx' -o -name '*.js' -o -name '*.mjs' -o -name '*.css' -o -name '*.json' -o -name '*.svg' -o -name '*.sql' \) \
        -not -path '*/node_modules/*' 2>/dev/null | LC_ALL=C sort | xargs cat 2>/dev/null | sha1sum | cut -d' ' -f1 || true)
  if [ ! -f .next/BUILD_ID ] || [ "$(cat .next/quire-build-hash 2>/dev/null)" != "$h" ]; then
    echo "quire: building the dashboard (next build)" >&2
    NEXT_TELEMETRY_DISABLED=1 npx next build >&2
    echo "$h" > .next/quire-build-hash
  fi
}

case "$cmd" in
  start)
    if [ "${DASHBOARD:-true}" != "false" ] && [ "${DASHBOARD:-true}" != "0" ]; then build_if_stale; fi
    NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 exec "${NODE_RUN[@]}" lib/server/main.ts ;;
  dev)
    QUIRE_DEV=1 NEXT_TELEMETRY_DISABLED=1 exec "${NODE_RUN[@]}" lib/server/main.ts ;;
  build) build_if_stale ;;
  test) exec bash scripts/run-tests.sh "$@" ;;
  check) npx eslint . && npx tsc --noEmit && "${NODE_RUN[@]}" scripts/check-layers.ts && npx vitest run --project unit ;;
  worker) NODE_ENV=production exec "${NODE_RUN[@]}" lib/server/worker-main.ts ;;
  cli) exec "${NODE_RUN[@]}" lib/server/cli.ts "$@" ;;
  run) exec "${NODE_RUN[@]}" "$@" ;;
  *) echo "usage: scripts/quire.sh start|dev|build|test|check|worker|cli|run FILE" >&2; exit 2 ;;
esac
