import 'server-only';
import type { Redis } from 'ioredis';
import { decodePayload } from '@/lib/potatoq';
import { reasonSummary } from '@/lib/pyvalues';
import { ConsoleError } from '@/lib/brokers/errors';
import type { DeadDetail, DeadListQuery, DeadSummary, Page, TaskDetail, TaskListQuery, TaskSummary } from '@/lib/brokers/schema';
import { mapResult, preview, PREVIEW_DECODE_LIMIT, rawParts, storedText } from '../mappers';
import { messageView } from '@/lib/potatoq/view';
import { potatoqState, type PotatoqState } from '../model';
import { reasonFingerprint } from '@/lib/triage/reason-fingerprint';
import type { NewestPage } from './dead-tally';
import { redisKeys } from './keys';
import { pageRows } from './reads-pages';
import { encodeCursor, ROW_FIELDS, timeMs, toRow, type TaskRow } from './rows';
import { hasRange, inRange, rangeMs } from '@/lib/brokers/time-range';

// The contract's task and dead-letter pages and details on potatoq's Redis layout. Pages are
// keyset pages over the sorted sets (reads-pages.ts): O(log n + limit) at any depth. A filter
// (task, id prefix, text, error group, a dead letter's queue) has no index on Redis, so a
// filtered page walks the set from its cursor in chunks and stops after `window` members: the
// page may then hold fewer than `limit` rows, and its cursor continues the walk.

const CHUNK = 500;
const SET_OF: Record<PotatoqState, 'ready' | 'delayed' | 'active'> = { ready: 'ready', scheduled: 'delayed', running: 'active' };

/** One row read with its raw payload (bytes), so lists can preview it and filters search it. */
interface Read {
  row: TaskRow;
  payload: Buffer | null;
}

const iso = (ms: number | null | undefined) =>
  ms === null || ms === undefined || !Number.isFinite(ms) ? null : new Date(ms).toISOString();

type RowKind = 'ready' | 'delayed' | 'active' | 'dead';

/** pageRows' rows as Reads (the row's fields and its payload bytes). */
const readsOf = ({ entries, raws, nowMs }: Awaited<ReturnType<typeof pageRows>>, kind: RowKind): Read[] =>
  entries.map(([id, score], i) => ({ row: toRow(id, score, raws[i]!, nowMs, kind), payload: raws[i]![1] ?? null }));

/**
 * A page of `key` in its order, filtered by `keep`: unfiltered it is one pageRows call; filtered it
 * walks at most `window` members from the cursor.
 */
async function walk(
  client: Redis,
  prefix: string,
  key: string,
  kind: RowKind,
  limit: number,
  cursor: string | null,
  keep: ((r: Read) => boolean) | null,
  window: number,
  kept?: (limit: number) => Promise<NewestPage | null>,
  floor: number | null = null,
): Promise<{ rows: Read[]; next: string | null }> {
  // A descending walk ends at the first member scored below `floor` (a range's since).
  const below = (score: string) => floor !== null && Number(score) < floor;
  if (!keep) {
    // The first page: from the window dead-tally.ts keeps, when it is kept.
    const newest = kept && !cursor ? await kept(limit) : null;
    const page = newest ? { ...newest, nowMs: 0 } : await pageRows(client, prefix, key, limit, cursor, kind === 'dead');
    const end = page.entries.findIndex(([, score]) => below(score));
    const cut = end < 0 ? page : { ...page, entries: page.entries.slice(0, end), raws: page.raws.slice(0, end), more: false };
    const { entries, more } = cut;
    const rows = readsOf(cut, kind);
    const last = entries[entries.length - 1];
    return { rows, next: more && last ? encodeCursor(last[1], last[0]) : null };
  }
  const out: Read[] = [];
  let cur = cursor;
  let examined = 0;
  for (;;) {
    const page = await pageRows(client, prefix, key, Math.min(CHUNK, window - examined), cur, kind === 'dead');
    const { entries, more } = page;
    const rows = readsOf(page, kind);
    for (let i = 0; i < rows.length; i++) {
      if (below(entries[i]![1])) return { rows: out, next: null };
      if (!keep(rows[i]!)) continue;
      out.push(rows[i]!);
      if (out.length === limit) {
        const more2 = i < rows.length - 1 || more;
        const [id, score] = entries[i]!;
        return { rows: out, next: more2 ? encodeCursor(score, id) : null };
      }
    }
    examined += entries.length;
    const last = entries[entries.length - 1];
    if (!more || !last) return { rows: out, next: null };
    cur = encodeCursor(last[1], last[0]);
    if (examined >= window) return { rows: out, next: cur };
  }
}

const contains = (hay: string | null, needle: string) => hay !== null && hay.toLowerCase().includes(needle.toLowerCase());
const text = (p: Buffer | null) => (p === null ? null : storedText(p));

function taskSummary(r: Read, state: PotatoqState, queue: string): TaskSummary {
  const t = r.row;
  const small = r.payload !== null && r.payload.length <= PREVIEW_DECODE_LIMIT ? r.payload : null;
  return {
    id: t.id,
    queue: t.queue ?? queue,
    task: t.task ?? '(unknown)',
    state,
    priority: t.priority ?? '0',
    // Scheduled: due time; running: lease deadline (the model's "Lease ends").
    runAt: state === 'ready' ? iso(t.eta === null ? null : t.eta * 1000) : iso(t.atMs),
    createdAt: iso(t.enqueuedAt === null ? null : t.enqueuedAt * 1000),
    claimedAt: null,
    worker: t.worker,
    pid: t.pid,
    deliveries: String(t.deliveries ?? 0),
    preview: preview(small, r.payload?.length ?? 0),
    seq: t.score,
  };
}

/** Ready (claim order), scheduled (due time) or running (lease deadline) tasks of one queue. */
export async function listTasks(client: Redis, prefix: string, q: TaskListQuery, window: number): Promise<Page<TaskSummary>> {
  const state = potatoqState(q.state);
  if (!q.queue)
    throw new ConsoleError('InvalidInput', 'choose a queue: potatoq on Redis keeps each queue in its own sorted sets', {
      queue: 'required on Redis',
    });
  const k = redisKeys(prefix);
  const set = SET_OF[state];
  const key = set === 'ready' ? k.ready(q.queue) : set === 'delayed' ? k.delayed(q.queue) : k.active(q.queue);
  // A time range (enqueued: the message's own `enqueued_at`) has no index either: the same walk.
  const filtered = q.task !== undefined || q.id !== undefined || q.q !== undefined || hasRange(q);
  const keep = filtered
    ? (r: Read) =>
        inRange(r.row.enqueuedAt === null ? null : r.row.enqueuedAt * 1000, q) &&
        (q.task === undefined || r.row.task === q.task) &&
        (q.id === undefined || r.row.id.startsWith(q.id)) &&
        (q.q === undefined || contains(text(r.payload), q.q))
    : null;
  const { rows, next } = await walk(client, prefix, key, set, q.limit, q.cursor ?? null, keep, window);
  // A member whose hash is gone (revoked meanwhile) is no task; claim skips it too.
  const items = rows.filter((r) => r.row.state !== 'missing').map((r) => taskSummary(r, state, q.queue!));
  return { items, nextCursor: next, ...(filtered ? { searchedNewest: window } : {}) };
}

/** Summaries by payload bytes: a kept row (dead-tally.ts) keeps its bytes until the letter
 *  changes, so a polled first page summarises each letter once; other reads bring new bytes. */
const summaries = new WeakMap<Buffer, { id: string; score: string; summary: DeadSummary }>();

function deadSummary(r: Read): DeadSummary {
  const memo = r.payload ? summaries.get(r.payload) : undefined;
  if (memo && memo.id === r.row.id && memo.score === r.row.score) return memo.summary;
  const summary = summarise(r);
  if (r.payload) summaries.set(r.payload, { id: r.row.id, score: r.row.score, summary });
  return summary;
}

function summarise(r: Read): DeadSummary {
  const t = r.row;
  const orphan = t.state === 'missing';
  const small = r.payload !== null && r.payload.length <= PREVIEW_DECODE_LIMIT ? r.payload : null;
  return {
    id: t.id,
    queue: t.queue ?? '',
    task: t.task ?? '(unknown)',
    summary: orphan ? 'orphaned entry: its task was deleted (by `potatoq revoke`); discard it to remove it' : reasonSummary(t.reason ?? ''),
    diedAt: iso(t.diedAtMs),
    preview: orphan ? { kind: 'foreign', text: '(no task: only the dead-letter entry is left)' } : preview(small, r.payload?.length ?? 0),
  };
}

/** Dead letters newest first; entries whose hash is gone (potatoq's revoke leaves them) are shown so they can be discarded. */
export async function listDead(
  client: Redis,
  prefix: string,
  q: DeadListQuery,
  window: number,
  kept?: (limit: number) => Promise<NewestPage | null>,
): Promise<Page<DeadSummary>> {
  const filtered = q.queue !== undefined || q.task !== undefined || q.id !== undefined || q.q !== undefined || q.group !== undefined;
  const keep = filtered
    ? (r: Read) =>
        (q.queue === undefined || r.row.queue === q.queue) &&
        (q.task === undefined || r.row.task === q.task) &&
        (q.id === undefined || r.row.id.startsWith(q.id)) &&
        (q.q === undefined || contains(r.row.reason, q.q) || (q.qIn !== 'reason' && contains(text(r.payload), q.q))) &&
        (q.group === undefined || reasonFingerprint(r.row.reason).key === q.group)
    : null;
  // The set's score is the died time (ms): a range is a score range. `until` starts the walk as
  // if after a member scored `until` whose id sorts first (ids hold no NUL), so every member at
  // `until` or above is passed; `since` ends it.
  const { from, to } = rangeMs(q);
  const start = q.cursor ?? (to === null ? null : encodeCursor(String(to), '\u0000'));
  const { rows, next } = await walk(client, prefix, redisKeys(prefix).dead, 'dead', q.limit, start, keep, window, kept, from);
  return { items: rows.map(deadSummary), nextCursor: next, ...(filtered ? { searchedNewest: window } : {}) };
}

async function readOne(client: Redis, prefix: string, id: string) {
  const k = redisKeys(prefix);
  const r =
    (await client
      .pipeline()
      .time()
      .hmgetBuffer(k.job(id), ...ROW_FIELDS)
      .get(k.result(id))
      .pttl(k.result(id))
      .exec()) ?? [];
  const now = timeMs(r[0]?.[1]);
  const raw = (r[1]?.[1] as Array<Buffer | null> | undefined) ?? [];
  const st = raw[4]?.toString() ?? null;
  const rec = r[2]?.[1] as string | null | undefined;
  const pttl = r[3]?.[1] as number | undefined;
  const result = typeof rec === 'string' ? mapResult(id, '', rec, pttl !== undefined && pttl > 0 ? (now + pttl) / 1000 : null) : null;
  return { k, raw, st, now, result };
}

const VIEW_STATE: Record<string, PotatoqState> = { ready: 'ready', delayed: 'scheduled', active: 'running' };

/** A waiting or running task (`st` ready, delayed or active) with its decoded payload; null otherwise. */
export async function getTask(client: Redis, prefix: string, id: string): Promise<TaskDetail | null> {
  const { k, raw, st, now, result } = await readOne(client, prefix, id);
  const state = st === null ? undefined : VIEW_STATE[st];
  if (!state) return null;
  const q = raw[0]?.toString() ?? '';
  const set = SET_OF[state];
  const score = await client.zscore(set === 'ready' ? k.ready(q) : set === 'delayed' ? k.delayed(q) : k.active(q), id);
  const p = raw[1] ?? Buffer.alloc(0);
  const row = toRow(id, score ?? '0', raw, now, set);
  const base = taskSummary({ row, payload: p }, state, q);
  return { ...base, payload: messageView(decodePayload(new Uint8Array(p))), ...rawParts(p), result };
}

/** A dead letter (`st = dead`) with its full reason and decoded payload; null otherwise. */
export async function getDead(client: Redis, prefix: string, id: string): Promise<DeadDetail | null> {
  const { k, raw, st, now, result } = await readOne(client, prefix, id);
  if (st !== 'dead') return null;
  const score = await client.zscore(k.dead, id);
  const p = raw[1] ?? Buffer.alloc(0);
  const row = toRow(id, score ?? raw[9]?.toString() ?? '0', raw, now, 'dead');
  return {
    ...deadSummary({ row, payload: p }),
    reason: row.reason,
    payload: messageView(decodePayload(new Uint8Array(p))),
    ...rawParts(p),
    result,
  };
}
