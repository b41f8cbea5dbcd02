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
# CPU time of the whole machine per tier (/proc/stat: busy jiffies of all cores), printed beside
# each tier's wall time: a tier near 100% of the cores is bound by them, not by waiting.
cores=$(nproc)
cpu_busy() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }
cpu_note() { # t0 busy0: "cpu N% of C cores"
  local secs=$((SECONDS - $1)) busy=$(( ($(cpu_busy) - $2) / $(getconf CLK_TCK) ))
  [ "$secs" -gt 0 ] && printf ', cpu %s%% of %s cores' "$((100 * busy / (secs * cores)))" "$cores"
}
# JSON reports of the test tiers, so the summary (the part CI keeps) can name failed tests.
reports=$(mktemp -d)
trap 'rm -rf "$reports"' EXIT
failed_reports=()
run_step() {
  local name=$1
  shift
  local t0=$SECONDS b0
  b0=$(cpu_busy)
  printf '\n=== %s: %s\n' "$name" "$*"
  if "$@"; then
    summary+=("PASS  $name ($((SECONDS - t0))s$(cpu_note "$t0" "$b0"))")
    return 0
  fi
  summary+=("FAIL  $name ($((SECONDS - t0))s$(cpu_note "$t0" "$b0"))")
  failed=1
  [ -n "${REPORT:-}" ] && failed_reports+=("$name=$REPORT")
  return 1
}

# QueueFlow's real server (scripts/queueflow.sh install: built once per machine with the sid
# chroot's Rust, about 10 min cold on 2 cores, nothing once cached) builds in the background
# beside the tiers that do not use it, and integration waits for it (root only: the chroot).
qf_log=$reports/queueflow-install.log
qf_pid=""
qf_t0=$SECONDS
if [ -d tests/queueflow ] && [ "$(id -u)" = 0 ]; then
  # niced: the tiers beside it keep the cores they need; the build takes what they leave.
  nice -n 19 bash scripts/queueflow.sh install > "$qf_log" 2>&1 &
  qf_pid=$!
fi
queueflow_server() {
  [ -n "$qf_pid" ] || return 0
  local rc=0
  wait "$qf_pid" || rc=$?
  cat "$qf_log"
  echo "queueflow server: started with the first tier, done after $((SECONDS - qf_t0))s (exit $rc)"
  return "$rc"
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
# why: files that share a broker database or server run in one lane, the lanes balanced by
# tests/int-timings.json): lane 1 streams here; lane 2's log is printed when both are done.
# POTATOQ_INT_LANES=1 runs every file in one process instead.
int_lanes() {
  local vt=(npx vitest run --project int --no-file-parallelism "${VT_REPORT[@]}")
  if [ "${POTATOQ_INT_LANES:-2}" = 1 ]; then
    VITEST_UNHANDLED_REPORT=$reports/int.unhandled.json "${vt[@]}" --outputFile.json="$reports/int.json"
    return
  fi
  local one two pid rc1=0 rc2=0 t0=$SECONDS start
  start=$(date +%s)
  mapfile -t one < <(node scripts/int-lanes.mjs 1)
  mapfile -t two < <(node scripts/int-lanes.mjs 2)
  echo "integration lanes: ${#one[@]} files in lane 1, ${#two[@]} in lane 2 (node scripts/int-lanes.mjs --explain)"
  (
    VITEST_UNHANDLED_REPORT=$reports/int-2.unhandled.json "${vt[@]}" --outputFile.json="$reports/int-2.json" "${two[@]}"
    rc=$?
    echo "integration: lane 2 done after $(($(date +%s) - start))s (exit $rc)"
    exit "$rc"
  ) > "$reports/int-2.log" 2>&1 &
  pid=$!
  VITEST_UNHANDLED_REPORT=$reports/int.unhandled.json "${vt[@]}" --outputFile.json="$reports/int.json" "${one[@]}" 2>&1 \
    | tee "$reports/int-1.log"
  rc1=${PIPESTATUS[0]}
  echo "integration: lane 1 done after $((SECONDS - t0))s (exit $rc1)"
  wait "$pid" || rc2=$?
  printf '\n=== integration, lane 2 (ran beside lane 1; both done after %ss, exit %s)\n' "$((SECONDS - t0))" "$rc2"
  cat "$reports/int-2.log"
  # Keeps each file's time for the next split when asked (a fresh machine's times are the ones to keep).
  [ -n "${POTATOQ_INT_TIMINGS:-}" ] && node scripts/int-timings.mjs "$reports/int-1.log" "$reports/int-2.log"
  [ "$rc2" -ne 0 ] && failed_reports+=("integration (lane 2)=$reports/int-2.json")
  [ "$rc1" -eq 0 ] && [ "$rc2" -eq 0 ]
}
run_step queueflow-server queueflow_server
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
