// Splits the integration files into two lanes that scripts/test-all.sh runs side by side, one
// vitest process each (one file at a time within a lane), so the tier takes about half as long
// on two cores. The suites mostly wait on brokers and workers, not on the CPU.
//
//   shared    files that reach Redis, Valkey, RabbitMQ or Celery: they share numbered Redis
//             databases (several files flush theirs), RabbitMQ's default vhost and the DLQ
//             browse lock, so they keep running one after another, as before;
//   isolated  everything else: SQLite files in temp folders, PostgreSQL schemas and databases
//             of their own, QueueFlow servers on free ports, MySQL databases of their own.
//
// A file is shared when it, or a test helper it imports (followed through tests/), names one of
// those services. A file that names them without sharing anything (brokers on unused ports,
// a key prefix of its own in a database nobody flushes) may say so on a line of its own:
//   // int-lane: isolated (why)
// Usage: node scripts/int-lanes.mjs shared|isolated [--root DIR]   prints one path a line.
//        node scripts/int-lanes.mjs --explain                      prints each file's lane and why.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const SHARED = /\b(redis|valkey|rabbitmq|rabbit|amqps?|celery)\b/i;
const MARK = /^\s*\/\/\s*int-lane:\s*isolated\b/m;
const IMPORT = /(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g;

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

/** Why `file` is in the shared lane (the file that names a shared service), or null. */
export function sharedReason(root, file) {
  const own = readFileSync(file, 'utf8');
  if (MARK.test(own)) return null;
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

export function lanes(root) {
  const files = walk(path.join(root, 'tests')).sort();
  const out = { shared: [], isolated: [], why: new Map() };
  for (const f of files) {
    const why = sharedReason(root, f);
    const rel = path.relative(root, f);
    out[why ? 'shared' : 'isolated'].push(rel);
    out.why.set(rel, why ?? (MARK.test(readFileSync(f, 'utf8')) ? 'marked isolated' : 'names no shared service'));
  }
  return out;
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (isMain) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--root');
  const root = at >= 0 ? path.resolve(args[at + 1]) : process.cwd();
  const l = lanes(root);
  if (args.includes('--explain')) {
    for (const lane of ['shared', 'isolated']) for (const f of l[lane]) console.log(`${lane}\t${f}\t${l.why.get(f)}`);
  } else if (args[0] === 'shared' || args[0] === 'isolated') {
    for (const f of l[args[0]]) console.log(f);
  } else {
    console.error('usage: node scripts/int-lanes.mjs shared|isolated|--explain [--root DIR]');
    process.exit(2);
  }
}
