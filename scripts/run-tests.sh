#!/usr/bin/env bash
# `npm test`: everything CI runs, in one go, with one closing line "N passed, N failed".
#  1. unit tests and API tests over real HTTP against a started server on embedded PGlite
#  2. the API tests again against PostgreSQL (127.0.0.1:5432 or QUIRE_TEST_PG_URL), when reachable,
#     and the scale tests (2 web + 2 worker processes on PostgreSQL and an S3-compatible bucket)
#  3. the dashboard build and the end-to-end tests in Chromium
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
mkdir -p test-results
rm -f test-results/*.json
status=0
run() { # name, vitest args...
  local name=$1; shift
  echo "== $name" >&2
  NEXT_TELEMETRY_DISABLED=1 npx vitest run "$@" --reporter=default --reporter=json --outputFile="test-results/$name.json" || status=1
}

run unit-and-api-pglite --project unit --project api

pg_url="${QUIRE_TEST_PG_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
if node -e 'const {Client}=require("pg");const c=new Client({connectionString:process.argv[1],connectionTimeoutMillis:3000});c.connect().then(()=>c.end()).then(()=>process.exit(0),()=>process.exit(1))' "$pg_url" 2>/dev/null; then
  QUIRE_TEST_PG_URL="$pg_url" run api-postgres --project api
  QUIRE_TEST_PG_URL="$pg_url" run scale-postgres --project scale
else
  echo "== PostgreSQL not reachable at $pg_url: the PostgreSQL pass is skipped" >&2
fi

if [ "${QUIRE_SKIP_E2E:-}" != "1" ] && ls tests/e2e/*.test.ts >/dev/null 2>&1; then
  bash scripts/quire.sh build || status=1
  run e2e --project e2e
fi

node -e '
const fs=require("fs");let p=0,f=0,s=0;
for (const file of fs.readdirSync("test-results").filter(x=>x.endsWith(".json"))) {
  try { const r=JSON.parse(fs.readFileSync("test-results/"+file,"utf8")); p+=r.numPassedTests||0; f+=r.numFailedTests||0; s+=(r.numPendingTests||0)+(r.numTodoTests||0); } catch {}
}
console.log(`${p} passed, ${f} failed` + (s?`, ${s} skipped`:""));
if (p===0) process.exit(1);'
summary=$?
[ $summary -ne 0 ] && status=1
exit $status
