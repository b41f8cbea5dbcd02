import 'server-only';
import { decodeCursor, encodeCursor } from '@/lib/brokers/cursor';
import { ConsoleError } from '@/lib/brokers/errors';
import type { HeaderRow, Page, TaskDetail, TaskListQuery, TaskSummary } from '@/lib/brokers/schema';
import { envelopeView, type CeleryEnvelope } from '../message';
import { CELERY_STATES, type CeleryState } from '../model';
import { summaryOf, type CeleryRedisCtx } from './context';
import { PRIORITY_STEPS } from './keys';
import { CHUNK, discoverQueues, isFuture, readAt, readReserved, resumeAt, walkQueue, type ReservedItem, type WaitingItem } from './lists';
import { anonymousId, DETAIL, HEADS, PAGE, RAW_LIMIT, ReadBudget, reservedEntry, SCAN_BYTES } from './read-profile';
import { readHashItems } from './read-script';
import { readRecord, recordDto } from './results';

/** Messages read per list request at most: a filter over a huge queue answers in part. */
export const SCAN_LIMIT = 20_000;

function celeryState(state: string): CeleryState {
  if ((CELERY_STATES as readonly string[]).includes(state)) return state as CeleryState;
  throw new ConsoleError('InvalidInput', `Celery has no "${state.slice(0, 40)}" state (ready, scheduled or running)`, {
    state: 'unknown state',
  });
}

function searchText(env: CeleryEnvelope): string {
  const c = env.info;
  return [c.task, c.id, c.argsrepr, c.kwargsrepr, JSON.stringify(c.args), JSON.stringify(c.kwargs)].join('\n');
}

function matches(env: CeleryEnvelope, q: TaskListQuery): boolean {
  if (q.task && env.info.task !== q.task) return false;
  if (q.id && !(env.info.id ?? '').startsWith(q.id)) return false;
  if (q.q && !searchText(env).includes(q.q)) return false;
  return true;
}

async function queuesFor(ctx: CeleryRedisCtx, q: TaskListQuery): Promise<string[]> {
  return q.queue ? [q.queue] : discoverQueues(ctx.client, ctx.keys, ctx.queues);
}

const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;
const cutWindow = (what: string) =>
  `this list read ${what} and stopped at the ${mb(SCAN_BYTES)} one request may read from Redis (or the JSON it may decode); narrow the filter (queue, task, id) to reach the rest`;

/** Waiting messages (ETA passed or none) in the order workers take them. */
async function listWaiting(ctx: CeleryRedisCtx, q: TaskListQuery): Promise<Page<TaskSummary>> {
  const now = Date.now();
  const queues = await queuesFor(ctx, q);
  const c = decodeCursor('celery-ready', q.cursor, 4);
  let qi = 0;
  let from = { bucket: 0, pos: 0 };
  if (c) {
    const [queue, bucket, pos, lastId] = c as [string, bigint, bigint, string];
    qi = Math.max(0, queues.indexOf(queue));
    from = await resumeAt(ctx, queue, { bucket: Number(bucket), pos: Number(pos), lastId });
  }
  const items: TaskSummary[] = [];
  let last: WaitingItem | null = null;
  let left = SCAN_LIMIT;
  const budget = new ReadBudget(SCAN_BYTES);
  for (; qi < queues.length; qi++, from = { bucket: 0, pos: 0 }) {
    const queue = queues[qi]!;
    for await (const it of walkQueue(ctx, queue, PAGE, budget, from, left)) {
      left -= 1;
      last = it;
      if (isFuture(it.env, now) || !matches(it.env, q)) continue;
      items.push(summaryOf(it.env, { queue, state: 'ready', seq: `${it.bucket}:${it.pos}`, id: it.id }));
      if (items.length === q.limit) break;
    }
    if (items.length === q.limit || left <= 0 || budget.cut) break;
  }
  const more = last !== null && (items.length === q.limit || left <= 0 || budget.cut);
  return {
    items,
    nextCursor: more && last ? encodeCursor('celery-ready', [last.queue, last.bucket, last.pos, last.id]) : null,
    ...(left <= 0 ? { searchedNewest: SCAN_LIMIT } : {}),
    ...(budget.cut && items.length < q.limit ? { window: cutWindow(`up to ${last?.queue ?? 'the first queue'}`) } : {}),
  };
}

/** Waiting messages with an ETA still ahead, by ETA (then id). */
async function listFuture(ctx: CeleryRedisCtx, q: TaskListQuery): Promise<Page<TaskSummary>> {
  const now = Date.now();
  const all: TaskSummary[] = [];
  const budget = new ReadBudget(SCAN_BYTES);
  for (const queue of await queuesFor(ctx, q)) {
    for await (const it of walkQueue(ctx, queue, PAGE, budget, undefined, SCAN_LIMIT)) {
      if (!isFuture(it.env, now) || !matches(it.env, q)) continue;
      all.push(summaryOf(it.env, { queue, state: 'scheduled', seq: `${it.bucket}:${it.pos}`, id: it.id }));
    }
    if (budget.cut) break;
  }
  const key = (t: TaskSummary) => `${t.runAt}\u0000${t.id}`;
  all.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  const c = decodeCursor('celery-eta', q.cursor, 1);
  const after = c ? (c[0] as string) : null;
  const rest = after === null ? all : all.filter((t) => key(t) > after);
  const items = rest.slice(0, q.limit);
  return {
    items,
    nextCursor: rest.length > q.limit ? encodeCursor('celery-eta', [key(items[items.length - 1]!)]) : null,
    ...(budget.cut ? { window: cutWindow('messages in queue order, not all of them') } : {}),
  };
}

function reservedSummary(r: ReservedItem): TaskSummary {
  return summaryOf(r.env, {
    queue: r.queue,
    state: 'running',
    seq: r.tag,
    id: r.id,
    claimedAtMs: r.deliveredAt === null ? null : Math.round(r.deliveredAt * 1000),
  });
}

/** Messages workers reserved (running, or held until their ETA), in delivery order. */
async function listReserved(ctx: CeleryRedisCtx, q: TaskListQuery): Promise<Page<TaskSummary>> {
  const budget = new ReadBudget(SCAN_BYTES);
  const { items: all } = await readReserved(ctx, undefined, budget);
  const c = decodeCursor('celery-reserved', q.cursor, 1);
  let rest = all.filter((r) => (!q.queue || r.queue === q.queue) && matches(r.env, q));
  if (c) {
    const i = rest.findIndex((r) => r.tag === c[0]);
    rest = i >= 0 ? rest.slice(i + 1) : rest;
  }
  const page = rest.slice(0, q.limit);
  return {
    items: page.map(reservedSummary),
    nextCursor: rest.length > q.limit ? encodeCursor('celery-reserved', [page[page.length - 1]!.tag]) : null,
    ...(budget.cut ? { window: cutWindow("kombu's unacked hash in part") } : {}),
  };
}

export function listTasks(ctx: CeleryRedisCtx, q: TaskListQuery): Promise<Page<TaskSummary>> {
  const state = celeryState(q.state);
  switch (state) {
    case 'ready':
      return listWaiting(ctx, q);
    case 'scheduled':
      return listFuture(ctx, q);
    case 'running':
      return listReserved(ctx, q);
    default: {
      const never: never = state;
      return never;
    }
  }
}

const isIt = (id: string, it: { id: string; env: { size: number }; first: Buffer }) =>
  it.id === id || (id.startsWith('no-id-') && anonymousId(it.env.size, it.first) === id);

export type Found = { waiting: WaitingItem } | { reserved: ReservedItem };

/** Where the message with this id is: waiting (which list, where) or reserved; headers only,
 *  at most SCAN_BYTES of messages and SCAN_LIMIT per queue. `complete`: everything was read. */
/** What one queue may take of the search's byte budget before the next queue's turn. */
const ROUND_BYTES = 8 * 1024 * 1024;

export async function locateMessage(ctx: CeleryRedisCtx, id: string): Promise<{ found: Found | null; complete: boolean }> {
  const budget = new ReadBudget(SCAN_BYTES);
  const reserved = (await readReserved(ctx, undefined, budget)).items.find((r) => isIt(id, r));
  if (reserved) return { found: { reserved }, complete: true };
  let complete = !budget.cut;
  // Every queue a round at a time (CHUNK messages, ROUND_BYTES at most), from the end workers take: a message near
  // the head of any queue (what a list's first page shows) is found before the byte budget is
  // spent on the depths of the queues named before it.
  const walks = (await discoverQueues(ctx.client, ctx.keys, ctx.queues)).map((queue) => ({
    it: walkQueue(ctx, queue, HEADS, budget, undefined, SCAN_LIMIT),
    n: 0,
    done: false,
  }));
  try {
    while (walks.some((w) => !w.done) && !budget.cut) {
      for (const w of walks) {
        for (let k = 0, bytes = 0; k < CHUNK && bytes < ROUND_BYTES && !w.done; k++) {
          const next = await w.it.next();
          if (next.done) {
            w.done = true;
            if (w.n >= SCAN_LIMIT || budget.cut) complete = false;
          } else {
            w.n += 1;
            bytes += next.value.env.size;
            if (isIt(id, next.value)) return { found: { waiting: next.value }, complete: true };
          }
        }
        if (budget.cut) break;
      }
    }
  } finally {
    await Promise.all(walks.map((w) => w.it.return(undefined)));
  }
  if (budget.cut) complete = false;
  return { found: null, complete };
}

/** What a scan that did not read everything says about an id it did not find. */
export const PARTIAL_FIND = `not found in the part of the queues read (at most ${SCAN_LIMIT.toLocaleString('en-US')} messages a queue and ${mb(SCAN_BYTES)} in all, headers only)`;

export const findMessage = async (ctx: CeleryRedisCtx, id: string): Promise<Found | null> => (await locateMessage(ctx, id)).found;

/** The found message read again for its page (body up to 1 MB, the raw text's first bytes);
 *  the scan's own read when it moved meanwhile. */
async function detailOf(ctx: CeleryRedisCtx, id: string, found: Found): Promise<Found> {
  if ('waiting' in found) {
    const again = await readAt(ctx, found.waiting.queue, found.waiting, DETAIL);
    return again && isIt(id, again) ? { waiting: again } : found;
  }
  const r = found.reserved;
  const [raw] = await readHashItems(ctx.client, ctx.stats, ctx.keys.unacked, [r.tag], 1, DETAIL.shape);
  if (!raw || raw.kind === 'x') return found;
  const entry = reservedEntry(ctx, raw, new ReadBudget(Number.POSITIVE_INFINITY), DETAIL);
  return isIt(id, entry) ? { reserved: { ...r, ...entry } } : found;
}

export async function getTask(ctx: CeleryRedisCtx, id: string): Promise<TaskDetail | null> {
  const located = await locateMessage(ctx, id);
  if (!located.found) {
    if (located.complete) return null;
    throw new ConsoleError('NotFound', `task ${id.slice(0, 200)} ${PARTIAL_FIND}`);
  }
  const found = await detailOf(ctx, id, located.found);
  const extra: HeaderRow[] = [];
  let summary: TaskSummary;
  let first: Buffer;
  if ('waiting' in found) {
    const w = found.waiting;
    first = w.first;
    summary = summaryOf(w.env, {
      queue: w.queue,
      state: isFuture(w.env, Date.now()) ? 'scheduled' : 'ready',
      seq: `${w.bucket}:${w.pos}`,
      id,
    });
    extra.push({
      name: 'waits in',
      text: `${ctx.keys.bucket(w.queue, PRIORITY_STEPS[w.bucket]!)} (position ${w.pos + 1} from the end workers take)`,
    });
  } else {
    const r = found.reserved;
    first = r.first;
    summary = { ...reservedSummary(r), id };
    if (r.deliveredAt !== null) {
      const back = new Date((r.deliveredAt + ctx.visibilityTimeout) * 1000).toISOString();
      extra.push({
        name: 'comes back',
        text: `${back} unless the worker acknowledges it first (visibility_timeout ${ctx.visibilityTimeout} s)`,
      });
    }
  }
  const env = 'waiting' in found ? found.waiting.env : found.reserved.env;
  const shown = first.subarray(0, RAW_LIMIT);
  const stored = ctx.backend && env.info.id ? await readRecord(ctx.backend, ctx.resultPrefix, env.info.id) : null;
  return {
    ...summary,
    payload: envelopeView(env, summary.queue, extra),
    raw: shown.toString('utf8'),
    rawSize: env.size,
    rawTruncated: shown.length < env.size,
    result: stored ? recordDto(stored.record, stored.ttl) : null,
  };
}

/** Task `id`'s message with its body (the family reads its canvas ids and embed), waiting or
 *  reserved; null when the queues read do not hold it. */
export async function messageOf(ctx: CeleryRedisCtx, id: string): Promise<{ env: CeleryEnvelope; reserved: boolean } | null> {
  const located = await locateMessage(ctx, id);
  if (!located.found) return null;
  const f = await detailOf(ctx, id, located.found);
  return 'waiting' in f ? { env: f.waiting.env, reserved: false } : { env: f.reserved.env, reserved: true };
}
