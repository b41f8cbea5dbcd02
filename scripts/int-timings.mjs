// Records how long each integration file took, for scripts/int-lanes.mjs to balance its two lanes:
// reads the output of vitest's default reporter (a file's line "✓ int tests/x.int.test.ts
// (N tests) 1234ms", which counts its hooks too: vitest's JSON report leaves beforeAll out, and
// some files do most of their work there) and rewrites tests/int-timings.json. A file in a log
// gets its new time; a file in no log keeps its old one; a file that no longer exists is dropped.
// Unknown files count as the median of the recorded ones (defaultMs).
// Usage: node scripts/int-timings.mjs LOG... [--root DIR]
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readTimings, TIMINGS } from './int-lanes.mjs';

const LINE = /^\s*[✓×❯]\s+\|?int\|?\s+(tests\/\S+\.int\.test\.ts)\s+\([^)]*\)\s+(\d+)\s*ms\s*$/;

/** Each integration file's duration (ms, rounded to 100) in one vitest log (colours or not). */
export function durationsIn(log) {
  const out = {};
  for (const line of log.replace(/\x1b\[[0-9;]*m/g, '').split('\n')) {
    const m = LINE.exec(line);
    if (m) out[m[1]] = Math.round(Number(m[2]) / 100) * 100;
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
  const logs = args.filter((a, i) => at < 0 || (i !== at && i !== at + 1));
  if (logs.length === 0) {
    console.error('usage: node scripts/int-timings.mjs LOG... [--root DIR]');
    process.exit(2);
  }
  const measured = Object.assign({}, ...logs.map((f) => durationsIn(readFileSync(f, 'utf8'))));
  const next = merged(root, readTimings(root), measured);
  writeFileSync(path.join(root, TIMINGS), `${JSON.stringify(next, null, 2)}\n`);
  console.log(
    `${TIMINGS}: ${Object.keys(measured).length} files measured, ${Object.keys(next.files).length} recorded, default ${next.defaultMs}ms`,
  );
}
