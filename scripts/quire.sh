#!/usr/bin/env bash
# The one entry point behind the npm scripts: prepares the machine (scripts/env.sh), then
#   start   build what changed (dashboard: next build; server: compiled to dist/), start Quire from dist/
#   build   the same builds, without starting
#   dev     the same with Next in dev mode
#   test    every test: unit, API on PGlite and PostgreSQL, e2e in Chromium
#   check   lint + typecheck + layering check (scripts/check-layers.ts) + unit tests (the quick local gate)
#   worker  a standalone queue worker (scaled-out mode), from dist/
#   cli     the admin CLI
#   run F   run a TypeScript file (benchmarks, accuracy scripts)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cmd="${1:-start}"; shift || true
NODE_RUN=(node --import tsx --import ./scripts/node-hooks.mjs)

source_hash() {
  find app components lib public next.config.js package-lock.json tailwind.config.ts postcss.config.mjs tsconfig.json scripts/build-server.mjs \
        -type f \( -name '*.ts' -o -name '*.tsx' -o -name '*.js' -o -name '*.mjs' -o -name '*.css' -o -name '*.json' -o -name '*.svg' -o -name '*.sql' \) \
        -not -path '*/node_modules/*' 2>/dev/null | LC_ALL=C sort | xargs cat 2>/dev/null | sha1sum | cut -d' ' -f1 || true
}

# The dashboard (next build) and the server (TypeScript compiled to dist/), each only when its sources changed.
build_if_stale() { # [server-only]
  local h
  h=$(source_hash)
  if [ "${1:-}" != "server-only" ] && { [ ! -f .next/BUILD_ID ] || [ "$(cat .next/quire-build-hash 2>/dev/null)" != "$h" ]; }; then
    echo "quire: building the dashboard (next build)" >&2
    NEXT_TELEMETRY_DISABLED=1 npx next build >&2
    echo "$h" > .next/quire-build-hash
  fi
  if [ ! -f dist/BUILD ] || [ "$(cat dist/quire-build-hash 2>/dev/null)" != "$h" ]; then
    node scripts/build-server.mjs
    echo "$h" > dist/quire-build-hash
  fi
}
# Production processes run the compiled JS: nothing is compiled while requests are served.
DIST_RUN=(env QUIRE_COMPILED=1 node --enable-source-maps)

case "$cmd" in
  start)
    if [ "${DASHBOARD:-true}" != "false" ] && [ "${DASHBOARD:-true}" != "0" ]; then build_if_stale; else build_if_stale server-only; fi
    NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 exec "${DIST_RUN[@]}" dist/lib/server/main.js ;;
  dev)
    QUIRE_DEV=1 NEXT_TELEMETRY_DISABLED=1 exec "${NODE_RUN[@]}" lib/server/main.ts ;;
  build) build_if_stale ;;
  test) exec bash scripts/run-tests.sh "$@" ;;
  check) npx eslint . && npx tsc --noEmit && "${NODE_RUN[@]}" scripts/check-layers.ts && npx vitest run --project unit ;;
  worker)
    build_if_stale server-only
    NODE_ENV=production exec "${DIST_RUN[@]}" dist/lib/server/worker-main.js ;;
  cli) exec "${NODE_RUN[@]}" lib/server/cli.ts "$@" ;;
  run) exec "${NODE_RUN[@]}" "$@" ;;
  *) echo "usage: scripts/quire.sh start|dev|build|test|check|worker|cli|run FILE" >&2; exit 2 ;;
esac
