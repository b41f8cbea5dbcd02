import 'server-only';
import { decodeCursor, encodeCursor } from '@/lib/brokers/cursor';
import { ConsoleError } from '@/lib/brokers/errors';
import type { HeaderRow, Page, TaskDetail, TaskListQuery, TaskSummary } from '@/lib/brokers/schema';
import { envelopeView, type CeleryEnvelope } from '../message';
import { CELERY_STATES, type CeleryState } from '../model';
import { summaryOf, type CeleryRedisCtx } from './context';
import { PRIORITY_STEPS } from './keys';
import { discoverQueues, isFuture, readReserved, resumeAt, walkQueue, type ReservedItem, type WaitingItem } from './lists';
import { readRecord, recordDto } from './results';

/** Messages read per list request at most: a filter over a huge queue answers in part. */
export const SCAN_LIMIT = 20_000;
const RAW_LIMIT = 256 * 1024;

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
    from = await resumeAt(ctx.client, ctx.keys, queue, { bucket: Number(bucket), pos: Number(pos), lastId });
  }
  const items: TaskSummary[] = [];
  let last: WaitingItem | null = null;
  let budget = SCAN_LIMIT;
  for (; qi < queues.length; qi++, from = { bucket: 0, pos: 0 }) {
    const queue = queues[qi]!;
    for await (const it of walkQueue(ctx.client, ctx.keys, queue, from, budget)) {
      budget -= 1;
      last = it;
      if (isFuture(it.env, now) || !matches(it.env, q)) continue;
      items.push(
        summaryOf(it.env, { queue, state: 'ready', seq: `${it.bucket}:${it.pos}`, fallbackId: `${queue}:${it.bucket}:${it.pos}` }),
      );
      if (items.length === q.limit) break;
    }
    if (items.length === q.limit || budget <= 0) break;
  }
  const more = last !== null && (items.length === q.limit || budget <= 0);
  return {
    items,
    nextCursor: more && last ? encodeCursor('celery-ready', [last.queue, last.bucket, last.pos, last.env.info.id ?? '']) : null,
    ...(budget <= 0 ? { searchedNewest: SCAN_LIMIT } : {}),
  };
}

/** Waiting messages with an ETA still ahead, by ETA (then id). */
async function listFuture(ctx: CeleryRedisCtx, q: TaskListQuery): Promise<Page<TaskSummary>> {
  const now = Date.now();
  const all: TaskSummary[] = [];
  for (const queue of await queuesFor(ctx, q)) {
    for await (const it of walkQueue(ctx.client, ctx.keys, queue, undefined, SCAN_LIMIT)) {
      if (!isFuture(it.env, now) || !matches(it.env, q)) continue;
      all.push(
        summaryOf(it.env, { queue, state: 'scheduled', seq: `${it.bucket}:${it.pos}`, fallbackId: `${queue}:${it.bucket}:${it.pos}` }),
      );
    }
  }
  const key = (t: TaskSummary) => `${t.runAt}\u0000${t.id}`;
  all.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  const c = decodeCursor('celery-eta', q.cursor, 1);
  const after = c ? (c[0] as string) : null;
  const rest = after === null ? all : all.filter((t) => key(t) > after);
  const items = rest.slice(0, q.limit);
  return { items, nextCursor: rest.length > q.limit ? encodeCursor('celery-eta', [key(items[items.length - 1]!)]) : null };
}

function reservedSummary(r: ReservedItem): TaskSummary {
  return summaryOf(r.env, {
    queue: r.queue,
    state: 'running',
    seq: r.tag,
    fallbackId: r.tag,
    claimedAtMs: r.deliveredAt === null ? null : Math.round(r.deliveredAt * 1000),
  });
}

/** Messages workers reserved (running, or held until their ETA), in delivery order. */
async function listReserved(ctx: CeleryRedisCtx, q: TaskListQuery): Promise<Page<TaskSummary>> {
  const { items: all } = await readReserved(ctx.client, ctx.keys);
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

/** Where the message with this id is: waiting (which list, where) or reserved. Scans. */
export async function findMessage(ctx: CeleryRedisCtx, id: string): Promise<{ waiting: WaitingItem } | { reserved: ReservedItem } | null> {
  const reserved = (await readReserved(ctx.client, ctx.keys)).items.find((r) => r.env.info.id === id);
  if (reserved) return { reserved };
  for (const queue of await discoverQueues(ctx.client, ctx.keys, ctx.queues)) {
    for await (const it of walkQueue(ctx.client, ctx.keys, queue, undefined, SCAN_LIMIT)) if (it.env.info.id === id) return { waiting: it };
  }
  return null;
}

export async function getTask(ctx: CeleryRedisCtx, id: string): Promise<TaskDetail | null> {
  const found = await findMessage(ctx, id);
  if (!found) return null;
  const extra: HeaderRow[] = [];
  let summary: TaskSummary;
  let raw: string;
  if ('waiting' in found) {
    const w = found.waiting;
    raw = w.raw;
    summary = summaryOf(w.env, {
      queue: w.queue,
      state: isFuture(w.env, Date.now()) ? 'scheduled' : 'ready',
      seq: `${w.bucket}:${w.pos}`,
      fallbackId: id,
    });
    extra.push({
      name: 'waits in',
      text: `${ctx.keys.bucket(w.queue, PRIORITY_STEPS[w.bucket]!)} (position ${w.pos + 1} from the end workers take)`,
    });
  } else {
    const r = found.reserved;
    raw = r.raw;
    summary = reservedSummary(r);
    if (r.deliveredAt !== null) {
      const back = new Date((r.deliveredAt + ctx.visibilityTimeout) * 1000).toISOString();
      extra.push({
        name: 'comes back',
        text: `${back} unless the worker acknowledges it first (visibility_timeout ${ctx.visibilityTimeout} s)`,
      });
    }
  }
  const env = 'waiting' in found ? found.waiting.env : found.reserved.env;
  const stored = ctx.backend ? await readRecord(ctx.backend, ctx.resultPrefix, id) : null;
  return {
    ...summary,
    payload: envelopeView(env, summary.queue, extra),
    raw: raw.length > RAW_LIMIT ? raw.slice(0, RAW_LIMIT) : raw,
    rawSize: Buffer.byteLength(raw, 'utf8'),
    rawTruncated: raw.length > RAW_LIMIT,
    result: stored ? recordDto(stored.record, stored.ttl) : null,
  };
}
