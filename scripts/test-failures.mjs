#!/usr/bin/env node
// Prints, for the end of `npm test`, which tests failed and why, from the JSON reports that
// scripts/test-all.sh asks vitest and Playwright to write. CI keeps only the tail of a run's
// output, so without this a red tier says "FAIL integration" and nothing about which test.
// Usage: node scripts/test-failures.mjs <tier>=<report.json>... (a missing report is named).
// Beside a vitest report `X.json`, `X.unhandled.json` (scripts/vitest-unhandled.mjs) lists the
// run's unhandled errors: they fail a tier in which every test passed.
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';

const MAX_PER_TIER = 8;
const root = process.cwd();

function firstLines(text, n = 2) {
  return String(text ?? '')
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '')
    .slice(0, n)
    .map((l) => (l.length > 200 ? `${l.slice(0, 200)}…` : l));
}

function rel(file) {
  return file ? path.relative(root, file) : '?';
}

// vitest's json reporter (Jest's shape): a file failed as a whole (a hook, an import) or per test.
function vitestFailures(report) {
  const out = [];
  for (const file of report.testResults ?? []) {
    const failed = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of failed) out.push({ where: `${rel(file.name)} › ${a.fullName}`, why: firstLines(a.failureMessages?.[0]) });
    if (file.status === 'failed' && failed.length === 0) out.push({ where: rel(file.name), why: firstLines(file.message) });
  }
  return out;
}

// Playwright's json reporter: suites nest; a test failed if its last result is not passed/skipped.
function playwrightFailures(report) {
  const out = [];
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        const last = t.results?.[t.results.length - 1];
        if (!last || last.status === 'passed' || last.status === 'skipped') continue;
        const where = `${spec.file}:${spec.line} › ${[...titles, spec.title].join(' › ')}`;
        out.push({
          where: `${where} (${last.status}, ${t.results.length} tries)`,
          why: firstLines(last.error?.message ?? last.errors?.[0]?.message),
        });
      }
    }
    for (const s of suite.suites ?? []) walk(s, s.title && !s.title.endsWith('.ts') ? [...titles, s.title] : titles);
  };
  for (const s of report.suites ?? []) walk(s, []);
  for (const e of report.errors ?? []) out.push({ where: 'run', why: firstLines(e.message) });
  return out;
}

// scripts/vitest-unhandled.mjs's file beside a vitest report: errors no test owned.
function unhandledBeside(file) {
  const side = file.replace(/\.json$/, '') + '.unhandled.json';
  if (!existsSync(side)) return [];
  try {
    return (JSON.parse(readFileSync(side, 'utf8')).unhandled ?? []).map((u) => ({
      where: `${u.type}${u.file ? ` in ${u.file}` : ' (no test file known)'}${u.test ? ` › ${u.test}` : u.file ? ' (outside any test)' : ''}`,
      why: firstLines(u.message),
    }));
  } catch (e) {
    return [{ where: `unhandled errors report ${side}`, why: [`not JSON (${e.message})`] }];
  }
}

let any = false;
for (const arg of process.argv.slice(2)) {
  const [tier, file] = arg.split('=');
  if (!existsSync(file)) {
    console.log(`  ${tier}: no report at ${file} (the tier stopped before writing it)`);
    any = true;
    continue;
  }
  let report;
  try {
    report = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    console.log(`  ${tier}: report ${file} is not JSON (${e.message})`);
    any = true;
    continue;
  }
  const failures = report.testResults ? [...vitestFailures(report), ...unhandledBeside(file)] : playwrightFailures(report);
  if (failures.length === 0) continue;
  any = true;
  console.log(`  ${tier}: ${failures.length} failed`);
  for (const f of failures.slice(0, MAX_PER_TIER)) {
    console.log(`    ✗ ${f.where}`);
    for (const l of f.why) console.log(`        ${l}`);
  }
  if (failures.length > MAX_PER_TIER) console.log(`    … and ${failures.length - MAX_PER_TIER} more`);
}
if (!any) console.log('  (no failed tests in the reports)');
