import 'server-only';
import type { Redis } from 'ioredis';
import { decodePayload, type DecodedPayload } from '@/lib/potatoq';
import { isInternalResultId, redisKeys } from './keys';
import { hashState, timeMs, type HashState, type Page } from './rows';
import type { ResultBackend } from '../results';

// One task, results, workers and registered names, each bounded.

export interface ResultRow {
  id: string;
  status: string | null;
  name: string | null;
  /** Unix seconds, from the record. */
  dateDone: number | null;
  /** When Redis expires it (ms), from PTTL; null when it never expires. */
  expiresAtMs: number | null;
  /** The record as stored; null on the listing. */
  raw: string | null;
  /** Set when the record is not JSON potatoq could read (never thrown). */
  problem: string | null;
}

export interface TaskDetail {
  id: string;
  /** Every field of `P:job:<id>` as stored, `p` included; null when there is no hash. */
  hash: Record<string, string> | null;
  state: HashState;
  /** Full decode of `p` (never throws; foreign payloads are flagged with potatoq's reason). */
  payload: DecodedPayload | null;
  /** The score in the set the state says it is in (rank key, due ms, lease ms, died ms), null when not there (inconsistent). */
  score: string | null;
  result: ResultRow | null;
  nowMs: number;
}

/** Python's json.loads accepts NaN/Infinity; the fields read here never hold them, so a regex fallback covers those records. */
function parseRecord(id: string, raw: string, pttl: number | null, nowMs: number, keepRaw: boolean): ResultRow {
  const expiresAtMs = pttl !== null && pttl > 0 ? nowMs + pttl : null;
  try {
    const v = JSON.parse(raw) as Record<string, unknown>;
    return {
      id,
      status: typeof v.status === 'string' ? v.status : null,
      name: typeof v.name === 'string' ? v.name : null,
      dateDone: typeof v.date_done === 'number' ? v.date_done : null,
      expiresAtMs,
      raw: keepRaw ? raw : null,
      problem: v !== null && typeof v === 'object' && !Array.isArray(v) ? null : 'the result record is not a JSON object',
    };
  } catch (e) {
    const status = /"status":"([A-Z]+)"/.exec(raw)?.[1] ?? null;
    const nan = /\b(NaN|-?Infinity)\b/.test(raw);
    return {
      id,
      status,
      name: null,
      dateDone: null,
      expiresAtMs,
      raw: keepRaw ? raw : null,
      problem: nan ? null : `not JSON: ${(e as Error).message}`,
    };
  }
}

export async function readTask(client: Redis, prefix: string, id: string): Promise<TaskDetail | null> {
  const k = redisKeys(prefix);
  const r =
    (await client.pipeline().time().hgetall(k.job(id)).get(k.result(id)).pttl(k.result(id)).hgetBuffer(k.job(id), 'p').exec()) ?? [];
  const nowMs = timeMs(r[0]?.[1]);
  const h = (r[1]?.[1] as Record<string, string> | undefined) ?? {};
  const raw = r[2]?.[1] as string | null | undefined;
  const pttl = r[3]?.[1] as number | undefined;
  const hash = Object.keys(h).length ? h : null;
  const result = typeof raw === 'string' ? parseRecord(id, raw, pttl ?? null, nowMs, true) : null;
  if (!hash && !result) return null;
  const state = hashState(hash?.st);
  let score: string | null = null;
  if (hash && hash.q !== undefined) {
    const key =
      state === 'ready'
        ? k.ready(hash.q)
        : state === 'delayed'
          ? k.delayed(hash.q)
          : state === 'active'
            ? k.active(hash.q)
            : state === 'dead'
              ? k.dead
              : null;
    if (key) score = await client.zscore(key, id);
  }
  const p = r[4]?.[1];
  return { id, hash, state, payload: Buffer.isBuffer(p) ? decodePayload(new Uint8Array(p)) : null, score, result, nowMs };
}

/** SCAN iterations per results page at most: a page never costs more than this many SCANs. */
export const RESULT_SCAN_STEPS = 20;

/**
 * Results (`P:result:*`) by bounded SCAN, never KEYS. Unordered, as SCAN is; the cursor is
 * SCAN's own, so every record present for the whole walk is listed once (SCAN's guarantee);
 * a page may hold somewhat more than `limit`. Registered-name lists and groups are skipped.
 */
export async function listResults(client: Redis, prefix: string, limit: number, cursor: string | null): Promise<Page<ResultRow>> {
  const k = redisKeys(prefix);
  const ids: string[] = [];
  let cur = cursor && /^\d+$/.test(cursor) ? cursor : '0';
  let steps = 0;
  do {
    const [next, keys] = await client.scan(cur, 'MATCH', k.resultPattern, 'COUNT', Math.max(100, limit));
    cur = next;
    for (const key of keys) {
      const id = key.slice(prefix.length + ':result:'.length);
      if (!isInternalResultId(id)) ids.push(id);
    }
  } while (cur !== '0' && ids.length < limit && ++steps < RESULT_SCAN_STEPS);
  const pipe = client.pipeline().time();
  for (const id of ids) pipe.get(k.result(id)).pttl(k.result(id));
  const r = (await pipe.exec()) ?? [];
  const nowMs = timeMs(r[0]?.[1]);
  const items: ResultRow[] = [];
  ids.forEach((id, i) => {
    const raw = r[1 + 2 * i]?.[1];
    if (typeof raw === 'string') items.push(parseRecord(id, raw, (r[2 + 2 * i]?.[1] as number | undefined) ?? null, nowMs, false));
  });
  return { items, nextCursor: cur === '0' ? null : cur };
}

export interface WorkerRow {
  id: string;
  hostname: string | null;
  pid: number | null;
  queues: string[];
  concurrency: number | null;
  threads: number | null;
  running: string[];
  registered: string[] | null;
  heartbeat: number | null;
  /** Older than 3 × worker_heartbeat_interval (15 s): `potatoq status` greys it. */
  stale: boolean;
  /** Unreadable heartbeat JSON (never thrown). */
  problem: string | null;
}

/** `P:workers` (one field per node, removed on clean shutdown) with registered names by digest. */
export async function readWorkers(client: Redis, prefix: string, staleAfterS = 15): Promise<WorkerRow[]> {
  const k = redisKeys(prefix);
  const r = (await client.pipeline().time().hgetall(k.workers).exec()) ?? [];
  const now = timeMs(r[0]?.[1]) / 1000;
  const raw = (r[1]?.[1] as Record<string, string> | undefined) ?? {};
  const rows: WorkerRow[] = Object.keys(raw)
    .sort()
    .map((id) => {
      try {
        const v = JSON.parse(raw[id]!) as Record<string, unknown>;
        const hb = typeof v.heartbeat === 'number' ? v.heartbeat : null;
        const list = (x: unknown) => (Array.isArray(x) ? x.map(String) : []);
        return {
          id,
          hostname: typeof v.hostname === 'string' ? v.hostname : null,
          pid: typeof v.pid === 'number' ? v.pid : null,
          queues: list(v.queues),
          concurrency: typeof v.concurrency === 'number' ? v.concurrency : null,
          threads: typeof v.threads === 'number' ? v.threads : null,
          running: list(v.running),
          registered: typeof v.registered === 'string' ? [v.registered] : null,
          heartbeat: hb,
          stale: hb === null || now - hb > staleAfterS,
          problem: null,
        };
      } catch (e) {
        return {
          id,
          hostname: null,
          pid: null,
          queues: [],
          concurrency: null,
          threads: null,
          running: [],
          registered: null,
          heartbeat: null,
          stale: true,
          problem: `unreadable heartbeat: ${(e as Error).message}`,
        };
      }
    });
  const digests = [...new Set(rows.flatMap((w) => w.registered ?? []))];
  const names = new Map<string, string[] | null>();
  if (digests.length) {
    const got = await client.mget(...digests.map((d) => k.result(`potatoq-registered-${d}`)));
    digests.forEach((d, i) => names.set(d, namesOf(got[i] ?? null)));
  }
  for (const w of rows) w.registered = w.registered ? (names.get(w.registered[0]!) ?? null) : null;
  return rows;
}

const namesOf = (raw: string | null): string[] | null => {
  if (raw === null) return null;
  try {
    const v = (JSON.parse(raw) as { result?: unknown }).result;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : null;
  } catch {
    return null;
  }
};

/** Registered task names for enqueue's autocomplete: every `potatoq-registered-*` record (bounded SCAN). */
export async function registeredTaskNames(client: Redis, prefix: string, maxKeys = 200): Promise<string[]> {
  const k = redisKeys(prefix);
  const keys: string[] = [];
  let cur = '0';
  let steps = 0;
  do {
    const [next, batch] = await client.scan(cur, 'MATCH', k.registeredPattern, 'COUNT', 1000);
    cur = next;
    keys.push(...batch);
  } while (cur !== '0' && keys.length < maxKeys && ++steps < 1000);
  const out = new Set<string>();
  if (keys.length) for (const raw of await client.mget(...keys.slice(0, maxKeys))) for (const n of namesOf(raw) ?? []) out.add(n);
  return [...out].sort();
}

/** importCall's check, nothing written: the job hash (waiting, running or dead), then a result
 *  (stored only with a result backend: a task that ran without one leaves nothing). */
export async function findCall(client: Redis, prefix: string, id: string, results: ResultBackend): Promise<string | null> {
  const st = await client.hget(redisKeys(prefix).job(id), 'st');
  if (st) return `a task with this id is already ${st === 'dead' ? 'a dead letter' : st === 'active' ? 'running' : 'waiting'} here`;
  const done = await results.getResult(id);
  return done ? `a task with this id already finished here (${done.status})` : null;
}
