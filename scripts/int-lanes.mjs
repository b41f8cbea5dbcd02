// Splits the integration files into two lanes that scripts/test-all.sh runs side by side, one
// vitest process each (one file at a time within a lane), so the tier takes about half as long
// on two cores. The suites mostly wait on brokers and workers, not on the CPU.
//
// Files that could disturb each other run in the same lane, one after the other; the rest are
// spread so both lanes take about as long (by tests/int-timings.json, scripts/int-timings.mjs).
// What a file could disturb is what it declares, on a line of its own:
//   // int-lane: owns redis/3; uses redis/0 rabbitmq (why)
//   owns R   the file changes or reads all of R: flushes a Redis db, restarts a server, counts
//            every queue of a vhost, lists every worker of a broker db;
//   uses R   the file only touches what is its own inside R: keys under a random prefix,
//            queues with random names;
//   // int-lane: isolated (why)   it names a shared service but reaches none of it.
// A resource is a path: redis/N and valkey/N (database N of the test Redis / Valkey), rabbitmq
// (both RabbitMQ servers), and owning R also owns R/anything. Two files conflict when one owns
// what the other owns or uses. A file that reaches Redis, Valkey, RabbitMQ or Celery (itself or
// through a test helper under tests/) and declares nothing owns everything: it runs in the lane
// of every file that declares a resource. Files that reach none of them (SQLite in temp folders,
// PostgreSQL schemas and MySQL databases of their own, QueueFlow servers on free ports) conflict
// with nothing.
// Usage: node scripts/int-lanes.mjs 1|2 [--root DIR]   prints the lane's files, one a line.
//        node scripts/int-lanes.mjs --explain          prints each group, its lane, time and why.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const SHARED = /\b(redis|valkey|rabbitmq|rabbit|amqps?|celery)\b/i;
const MARK = /^\s*\/\/\s*int-lane:\s*isolated\b/m;
const DECLARE = /^\s*\/\/\s*int-lane:\s*((?:owns|uses)\b[^(\n]*)/gm;
const RESOURCE = /^[a-z0-9][a-z0-9._-]*(?:\/[a-z0-9._-]+)*$/;
const IMPORT = /(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g;
export const TIMINGS = 'tests/int-timings.json';

function walk(dir, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.name.endsWith('.int.test.ts')) out.push(p);
  }
  return out;
}

/** The file an import names, when it is one of the tests' own (not lib/, not a package). */
function resolve(root, from, spec) {
  let base;
  if (spec.startsWith('@/tests/')) base = path.join(root, spec.slice(2));
  else if (spec.startsWith('.')) base = path.resolve(path.dirname(from), spec);
  else return null;
  if (!base.startsWith(path.join(root, 'tests') + path.sep)) return null;
  for (const c of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (existsSync(c) && statSync(c).isFile()) return c;
  }
  return null;
}

/** The text without its comments (a comment naming a service reaches nothing); `//` after a
 *  colon is a URL's, kept. */
const code = (text) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');

/** Why `file` reaches a shared service (the file that names one), or null. */
export function sharedReason(root, file) {
  const seen = new Set();
  const todo = [file];
  while (todo.length > 0) {
    const f = todo.pop();
    if (seen.has(f)) continue;
    seen.add(f);
    const text = code(readFileSync(f, 'utf8'));
    const m = SHARED.exec(text);
    if (m) return `${path.relative(root, f)} names ${m[1]}`;
    for (const [, spec] of text.matchAll(IMPORT)) {
      const next = resolve(root, f, spec);
      if (next) todo.push(next);
    }
  }
  return null;
}

/** What one file owns and uses, and why; a declaration that cannot be read throws, naming the file. */
export function claimsOf(root, file) {
  const rel = path.relative(root, file);
  const text = readFileSync(file, 'utf8');
  const claims = { file: rel, owns: [], uses: [], why: '' };
  for (const [line] of text.matchAll(/^\s*\/\/\s*int-lane:.*$/gm)) {
    if (!/int-lane:\s*(owns|uses|isolated)\b/.test(line))
      throw new Error(`${rel}: int-lane: "${line.trim()}" is not "owns", "uses" or "isolated"`);
  }
  const declared = [...text.matchAll(DECLARE)].map((m) => m[1].trim());
  if (declared.length > 0) {
    for (const clause of declared.flatMap((d) => d.split(';'))) {
      const [verb, ...names] = clause.trim().split(/\s+/);
      if ((verb !== 'owns' && verb !== 'uses') || names.length === 0)
        throw new Error(`${rel}: int-lane: "${clause.trim()}" is not "owns R..." or "uses R..."`);
      for (const n of names)
        if (!RESOURCE.test(n)) throw new Error(`${rel}: int-lane: "${n}" is not a resource name (like redis/3 or rabbitmq)`);
      claims[verb].push(...names);
    }
    claims.why = declared.join('; ');
  } else if (MARK.test(text)) {
    claims.why = 'marked isolated';
  } else {
    const why = sharedReason(root, file);
    if (why) claims.owns.push('*');
    claims.why = why ? `${why} and declares nothing: owns everything` : 'names no shared service';
  }
  return claims;
}

const overlap = (a, b) => a === '*' || b === '*' || a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
const takes = (x, y) => x.owns.some((r) => [...y.owns, ...y.uses].some((s) => overlap(r, s)));
/** True when two files' claims say they may not run at the same time. */
export const conflicts = (x, y) => takes(x, y) || takes(y, x);

/** Each file's recorded duration (ms), and the default for a file not recorded. */
export function readTimings(root) {
  const f = path.join(root, TIMINGS);
  if (!existsSync(f)) return { defaultMs: 10_000, files: {} };
  const t = JSON.parse(readFileSync(f, 'utf8'));
  return { defaultMs: t.defaultMs ?? 10_000, files: t.files ?? {} };
}

/** Groups of files that conflict (directly or through others), each with its recorded time. */
export function groupsOf(claims, timings) {
  const parent = claims.map((_, i) => i);
  const find = (i) => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  for (let i = 0; i < claims.length; i++) {
    for (let j = i + 1; j < claims.length; j++) if (conflicts(claims[i], claims[j])) parent[find(i)] = find(j);
  }
  const byRoot = new Map();
  claims.forEach((c, i) => byRoot.set(find(i), [...(byRoot.get(find(i)) ?? []), c]));
  return [...byRoot.values()].map((members) => ({
    members,
    ms: members.reduce((s, c) => s + (timings.files[c.file] ?? timings.defaultMs), 0),
  }));
}

/** Both lanes: the longest groups first, each to the lane that is shorter so far. */
export function lanes(root) {
  const claims = walk(path.join(root, 'tests'))
    .sort()
    .map((f) => claimsOf(root, f));
  const groups = groupsOf(claims, readTimings(root)).sort((a, b) => b.ms - a.ms || a.members[0].file.localeCompare(b.members[0].file));
  const out = { 1: [], 2: [], ms: { 1: 0, 2: 0 }, groups: [] };
  for (const g of groups) {
    const lane = out.ms[1] <= out.ms[2] ? 1 : 2;
    out[lane].push(...g.members.map((c) => c.file));
    out.ms[lane] += g.ms;
    out.groups.push({ ...g, lane });
  }
  out[1].sort();
  out[2].sort();
  return out;
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (isMain) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--root');
  const root = at >= 0 ? path.resolve(args[at + 1]) : process.cwd();
  const l = lanes(root);
  const s = (ms) => `${Math.round(ms / 1000)}s`;
  if (args.includes('--explain')) {
    console.log(`lane 1: ${l[1].length} files, ~${s(l.ms[1])}; lane 2: ${l[2].length} files, ~${s(l.ms[2])} (recorded times)`);
    for (const g of l.groups) {
      if (g.members.length === 1 && g.members[0].owns.length + g.members[0].uses.length === 0) continue;
      console.log(`\nlane ${g.lane}, a group of ${g.members.length} (~${s(g.ms)}):`);
      for (const c of g.members) console.log(`  ${c.file}\t${c.why}`);
    }
    console.log(
      `\nand ${l.groups.filter((g) => g.members.length === 1 && g.members[0].owns.length + g.members[0].uses.length === 0).length} files that claim nothing, spread over both`,
    );
  } else if (args[0] === '1' || args[0] === '2') {
    for (const f of l[args[0]]) console.log(f);
  } else {
    console.error('usage: node scripts/int-lanes.mjs 1|2|--explain [--root DIR]');
    process.exit(2);
  }
}
