// `npm run bench:heap-diff -- <before.heapsnapshot> <after.heapsnapshot>`: what a Node process kept
// between two V8 heap snapshots (written after a full collection, so only live objects), as self
// size and count per constructor, largest growth first. Used with `BENCH_CELERY_HEAP_DIR` to say
// whether a server's growth is kept state or heap not yet collected. A script, not a test.
import fs from 'node:fs';
import { heapTotals, type HeapSnapshot } from './heap-figures';

const [beforePath, afterPath] = process.argv.slice(2);
if (!beforePath || !afterPath) {
  console.error('usage: npm run bench:heap-diff -- <before.heapsnapshot> <after.heapsnapshot>');
  process.exit(2);
}
const read = (p: string) => heapTotals(JSON.parse(fs.readFileSync(p, 'utf8')) as HeapSnapshot);
const a = read(beforePath);
const b = read(afterPath);
const mib = (n: number) => (n / 1048576).toFixed(1);
const sum = (m: Map<string, { size: number; count: number }>) => [...m.values()].reduce((t, v) => t + v.size, 0);
console.log(`live heap: ${mib(sum(a))} MiB → ${mib(sum(b))} MiB (${mib(sum(b) - sum(a))} MiB more)`);
const rows = [...new Set([...a.keys(), ...b.keys()])].map((k) => {
  const x = a.get(k) ?? { size: 0, count: 0 };
  const y = b.get(k) ?? { size: 0, count: 0 };
  return { k, grew: y.size - x.size, count: y.count - x.count, after: y.size };
});
rows.sort((p, q) => q.grew - p.grew);
console.log('largest growth (self size, objects):');
for (const r of rows.slice(0, Number(process.env.BENCH_HEAP_ROWS ?? 25)))
  console.log(`  ${mib(r.grew).padStart(8)} MiB  ${String(r.count).padStart(9)}  ${r.k}  (now ${mib(r.after)} MiB)`);
