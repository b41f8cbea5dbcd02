// What Flower cannot show at all, checked in the run of `npm run bench:celery` (not claimed from
// its documentation): failures from before it started, waiting tasks decoded, queues no worker
// consumes. Each line says "verified" only when both servers answered as claimed.
import type { BrokerAdapter } from '@/lib/brokers/types';
import { ZDeadListQuery, ZTaskListQuery } from '@/lib/brokers/schema';
import type { Dashboard } from './potatoq-side';
import type { Flower } from './celery-procs';
import { count } from './celery-figures';

/** Ids the run knows: a message still waiting, a failure from before Flower, one after. */
export interface Seen {
  waitingId: string;
  preFlowerFailureId: string;
  postFlowerFailureId: string;
}

/** Polls `read` every second until it reaches `target`; throws after `timeoutS` seconds. */
export async function waitFor(what: string, read: () => Promise<number>, target: number, timeoutS: number, log: (s: string) => void) {
  for (let i = 0; ; i++) {
    const n = await read();
    if (n >= target) return;
    if (i >= timeoutS) throw new Error(`${what}: ${n} of ${target} after ${timeoutS} s`);
    if (i % 15 === 14) log(`    ${what}: ${count(n)} of ${count(target)}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

async function status(url: string): Promise<number> {
  const r = await fetch(url);
  await r.arrayBuffer();
  return r.status;
}

async function json<T>(url: string): Promise<T> {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return (await r.json()) as T;
}

const verdict = (ok: boolean) => (ok ? 'verified' : 'NOT as claimed');

export async function showWhatFlowerMisses(o: {
  a: BrokerAdapter;
  flower: Flower;
  server: Dashboard | null;
  seen: Seen;
  failedBefore: number;
  orphanQueue: string;
  log: (s: string) => void;
}): Promise<void> {
  const { a, flower, seen, log } = o;
  log('\nwhat each one shows (read once, before the timed rounds):');

  const overview = await a.overview();
  const consoleDead = overview.totals.dead;
  const flowerFailed = Object.keys(await json<object>(`${flower.url}/api/tasks?state=FAILURE`)).length;
  const preInFlower = await status(`${flower.url}/api/task/info/${seen.preFlowerFailureId}`);
  const preInConsole = JSON.stringify(await a.getDead(seen.preFlowerFailureId));
  log(
    `  failures: the console counts ${count(consoleDead)} FAILURE records, Flower lists ${count(flowerFailed)} (it started after ${count(o.failedBefore)} of them)`,
  );
  log(
    `    a failure from before Flower started: Flower /api/task/info → HTTP ${preInFlower}; console dead detail → ${preInConsole.includes('Traceback') ? 'found, with its traceback' : 'NOT found'}: ${verdict(preInFlower === 404 && preInConsole.includes('Traceback') && flowerFailed < (consoleDead ?? 0))}`,
  );

  // The last message sent sits at the far end of a long queue: found by id only if within the
  // console's read budget (docs/systems/celery.md); the run says which.
  try {
    await a.getTask(seen.waitingId);
    log(`  the last waiting message sent (the tail of its queue): found by id by the console`);
  } catch (e) {
    log(`  the last waiting message sent (the tail of its queue): the console says "${(e as Error).message}"`);
  }
  const page = await a.listTasks({ ...ZTaskListQuery.parse({ queue: 'bench.wait09', limit: 50 }), state: 'ready' });
  const item = page.items.at(-1);
  const listed = item?.id ?? seen.waitingId;
  const waitInFlower = await status(`${flower.url}/api/task/info/${listed}`);
  const decoded = /order-\d+/.test(JSON.stringify(item ?? null));
  log(
    `  a waiting task (the 50th of bench.wait09's first page, ${page.items.length} listed): Flower /api/task/info → HTTP ${waitInFlower} (no event until a worker receives it); console list → ${decoded ? 'decoded (task, args, kwargs)' : 'NOT decoded'}: ${verdict(waitInFlower === 404 && decoded)}`,
  );
  for (const queue of ['bench.wait00', 'bench.wait09']) {
    const first = await a.listTasks({ ...ZTaskListQuery.parse({ queue, limit: 50 }), state: 'ready' });
    const id = first.items.at(-1)?.id ?? '';
    const detail = await a.getTask(id).then(
      (t) => (/order-\d+/.test(JSON.stringify(t)) ? 'opens, decoded' : 'opens, NOT decoded'),
      (e: unknown) => `does not open: ${(e as Error).message}`,
    );
    log(`    the console's detail of the 50th waiting task of ${queue}: ${detail}`);
  }
  log(`    Flower has no list of waiting tasks; the console lists them page by page`);

  const lengths = (await json<{ active_queues: Array<{ name: string; messages: number }> }>(`${flower.url}/api/queues/length`))
    .active_queues;
  const fSum = lengths.reduce((s, q) => s + q.messages, 0);
  const cReady = overview.queues.reduce((s, q) => s + (q.counts.ready ?? 0), 0);
  const orphanInFlower = lengths.some((q) => q.name === o.orphanQueue);
  const orphan = overview.queues.find((q) => q.name === o.orphanQueue);
  log(
    `  queue lengths: Flower ${lengths.length} queues, ${count(fSum)} messages; console ${overview.queues.length} queues, ${count(cReady)} waiting`,
  );
  log(
    `    a queue no worker consumes (${o.orphanQueue}, ${count(orphan?.counts.ready)} waiting): in Flower's list ${orphanInFlower ? 'yes' : 'no'} (it lists the queues workers report), in the console's ${orphan ? 'yes' : 'no'}: ${verdict(!orphanInFlower && orphan !== undefined)}`,
  );
  const newest = await a.listDead(ZDeadListQuery.parse({ limit: 100 }));
  log(`  the console's newest 100 failures hold ${newest.items.length} items${newest.window ? ` (window: ${newest.window})` : ''}`);
  for (const w of overview.warnings ?? []) log(`  the console's overview warns: ${w}`);
  if (overview.totalsCapped) log(`  the console's overview marks as lower bounds: ${JSON.stringify(overview.totalsCapped)}`);
}
