// `npm run bench:summary-retention`: how many tracebacks stay alive in the heap while only what
// the Celery result index keeps of 3,000 failures is held (their ids, summaries and
// fingerprints). 3 or 4 (the run's own) means the kept parts are copies; one per failure means a
// kept part is a view of its traceback and keeps it alive (the hour-long bench:celery run found
// 39,001, 26.5 MiB; lib/text/own.ts). A script, not a test: it writes a heap snapshot to a
// temporary folder and removes it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { failureReason, parseRecord } from '@/lib/brokers/celery/redis/results';
import { reasonSummaryFull } from '@/lib/pyvalues/reason';
import { reasonFingerprint } from '@/lib/triage/reason-fingerprint';
import { stringsStartingWith, type HeapSnapshot } from './heap-figures';

const N = 3000;
const kept: unknown[] = [];
for (let i = 0; i < N; i++) {
  const tb = `Traceback (most recent call last):\n  File "/app/shop/billing.py", line ${i}, in charge\n    raise ValueError("card ${i} declined")\n${'x'.repeat(1500)}\nValueError: card ${i} declined\n`;
  const result = { exc_type: 'ValueError', exc_message: [`card ${i} declined`], exc_module: 'builtins' };
  const raw = JSON.stringify({
    status: 'FAILURE',
    result,
    traceback: tb,
    children: [],
    date_done: '2026-12-05T03:00:00+00:00',
    task_id: `id${i}`,
    name: 'shop.charge',
  });
  const r = parseRecord(`id${i}`, raw)!;
  const reason = failureReason(r)!;
  kept.push({ id: r.id, summary: reasonSummaryFull(reason), fp: reasonFingerprint(reason) });
}
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-retention-'));
try {
  const h = JSON.parse(fs.readFileSync(v8.writeHeapSnapshot(path.join(dir, 'h.heapsnapshot')), 'utf8')) as HeapSnapshot;
  const alive = stringsStartingWith(h, 'Traceback (most');
  console.log(`${kept.length} failures' index parts kept; tracebacks alive: ${alive.count} (${(alive.bytes / 1048576).toFixed(1)} MiB)`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
