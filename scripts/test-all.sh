#!/usr/bin/env bash
# `npm test`: every tier in order: typecheck, lint (zero warnings), format (Prettier), paths,
# layers (scripts/check-layers.mjs: no import cycle, no layer crossed), unit, component, integration (real SQLite files and the
# real potatoq in .venv; other brokers when their suites exist), production build, then
# Playwright e2e against that build. Keeps going after a failure so one run shows every
# broken tier, skips e2e when the build failed, and exits non-zero if anything failed.
# Set POTATOQ_CONSOLE_REQUIRE_SERVICES=1 (CI does) to make a missing service fail its suite.
set -uo pipefail
cd "$(dirname "$0")/.."
export NEXT_DIST_DIR="${NEXT_DIST_DIR:-.next}"
export NEXT_TELEMETRY_DISABLED=1

summary=()
failed=0
# JSON reports of the test tiers, so the summary (the part CI keeps) can name failed tests.
reports=$(mktemp -d)
trap 'rm -rf "$reports"' EXIT
failed_reports=()
run_step() {
  local name=$1
  shift
  local t0=$SECONDS
  printf '\n=== %s: %s\n' "$name" "$*"
  if "$@"; then
    summary+=("PASS  $name ($((SECONDS - t0))s)")
    return 0
  fi
  summary+=("FAIL  $name ($((SECONDS - t0))s)")
  failed=1
  [ -n "${REPORT:-}" ] && failed_reports+=("$name=$REPORT")
  return 1
}

run_step venv bash scripts/ensure-venv.sh
run_step schemathesis bash scripts/schemathesis.sh ensure
run_step typecheck npx tsc --noEmit
run_step lint npx eslint . --max-warnings 0
run_step format npx prettier --check .
run_step paths node scripts/check-paths.mjs
run_step layers node scripts/check-layers.mjs
# Unhandled errors (which fail a run whose tests all passed) go to <report>.unhandled.json.
VT_REPORT=(--reporter=default --reporter=json --reporter=./scripts/vitest-unhandled.mjs)
REPORT=$reports/unit.json VITEST_UNHANDLED_REPORT=$reports/unit.unhandled.json run_step unit npx vitest run --project unit "${VT_REPORT[@]}" --outputFile.json="$reports/unit.json"
# Components in a real DOM (Debian's Chromium, as e2e uses): dialogs and tables that carry state.
REPORT=$reports/component.json VITEST_UNHANDLED_REPORT=$reports/component.unhandled.json run_step component npx vitest run --project component "${VT_REPORT[@]}" --outputFile.json="$reports/component.json"
# Integration in two lanes side by side (scripts/int-lanes.mjs says which file goes where and
# why): the shared lane (Redis, Valkey, RabbitMQ, Celery) streams here; the isolated lane's log
# is printed when both are done. POTATOQ_INT_LANES=1 runs every file in one process instead.
int_lanes() {
  local vt=(npx vitest run --project int --no-file-parallelism "${VT_REPORT[@]}")
  if [ "${POTATOQ_INT_LANES:-2}" = 1 ]; then
    VITEST_UNHANDLED_REPORT=$reports/int.unhandled.json "${vt[@]}" --outputFile.json="$reports/int.json"
    return
  fi
  local shared isolated pid s_rc=0 i_rc=0 t0=$SECONDS
  mapfile -t shared < <(node scripts/int-lanes.mjs shared)
  mapfile -t isolated < <(node scripts/int-lanes.mjs isolated)
  echo "integration lanes: ${#shared[@]} shared files, ${#isolated[@]} isolated files"
  VITEST_UNHANDLED_REPORT=$reports/int-isolated.unhandled.json "${vt[@]}" \
    --outputFile.json="$reports/int-isolated.json" "${isolated[@]}" > "$reports/int-isolated.log" 2>&1 &
  pid=$!
  VITEST_UNHANDLED_REPORT=$reports/int.unhandled.json "${vt[@]}" --outputFile.json="$reports/int.json" "${shared[@]}" || s_rc=$?
  echo "integration: shared lane done after $((SECONDS - t0))s (exit $s_rc)"
  wait "$pid" || i_rc=$?
  printf '\n=== integration, isolated lane (ran beside the shared lane; done after %ss, exit %s)\n' "$((SECONDS - t0))" "$i_rc"
  cat "$reports/int-isolated.log"
  [ "$i_rc" -ne 0 ] && failed_reports+=("integration (isolated lane)=$reports/int-isolated.json")
  [ "$s_rc" -eq 0 ] && [ "$i_rc" -eq 0 ]
}
REPORT=$reports/int.json run_step integration int_lanes
if run_step build npx next build; then
  REPORT=$reports/e2e.json PLAYWRIGHT_JSON_OUTPUT_NAME=$reports/e2e.json run_step e2e npx playwright test --reporter=list,json
else
  summary+=("SKIP  e2e (the build failed)")
fi

printf '\n=== summary\n'
printf '  %s\n' "${summary[@]}"
if [ "$failed" -ne 0 ]; then
  if [ "${#failed_reports[@]}" -gt 0 ]; then
    printf '\n=== failed tests\n'
    node scripts/test-failures.mjs "${failed_reports[@]}"
  fi
  echo "  => FAILED"
  exit 1
fi
echo "  => all tiers passed"
