// Records how long each integration file took, for scripts/int-lanes.mjs to balance its two lanes:
// reads vitest JSON reports (`--reporter=json --outputFile.json=...`, as scripts/test-all.sh
// writes them) and rewrites tests/int-timings.json. A file in a report gets its new time; a file
// in no report keeps its old one; a file that no longer exists is dropped. Unknown files count
// as the median of the recorded ones (defaultMs).
// Usage: node scripts/int-timings.mjs REPORT.json... [--root DIR]
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readTimings, TIMINGS } from './int-lanes.mjs';

/** Each integration file's duration (ms, rounded to 100) in one vitest JSON report. */
export function durationsIn(root, report) {
  const out = {};
  for (const r of report.testResults ?? []) {
    const rel = path.relative(root, r.name);
    if (!rel.endsWith('.int.test.ts') || !(r.endTime > r.startTime)) continue;
    out[rel] = Math.round((r.endTime - r.startTime) / 100) * 100;
  }
  return out;
}

/** The timings file's new content: old times, replaced by measured ones, only for files that exist. */
export function merged(root, old, measured) {
  const files = {};
  for (const [f, ms] of Object.entries({ ...old.files, ...measured }).sort(([a], [b]) => a.localeCompare(b))) {
    if (existsSync(path.join(root, f))) files[f] = ms;
  }
  const all = Object.values(files).sort((a, b) => a - b);
  const defaultMs = all.length > 0 ? all[Math.floor(all.length / 2)] : 10_000;
  return { defaultMs, files };
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (isMain) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--root');
  const root = at >= 0 ? path.resolve(args[at + 1]) : process.cwd();
  const reports = args.filter((a, i) => (at < 0 || (i !== at && i !== at + 1)) && a.endsWith('.json'));
  if (reports.length === 0) {
    console.error('usage: node scripts/int-timings.mjs REPORT.json... [--root DIR]');
    process.exit(2);
  }
  const measured = Object.assign({}, ...reports.map((r) => durationsIn(root, JSON.parse(readFileSync(r, 'utf8')))));
  const next = merged(root, readTimings(root), measured);
  writeFileSync(path.join(root, TIMINGS), `${JSON.stringify(next, null, 2)}\n`);
  console.log(
    `${TIMINGS}: ${Object.keys(measured).length} files measured, ${Object.keys(next.files).length} recorded, default ${next.defaultMs}ms`,
  );
}
