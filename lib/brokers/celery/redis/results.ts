import 'server-only';
import type { Redis } from 'ioredis';
import { parseJson } from '@/lib/pyvalues/json';
import { pyToTyped } from '@/lib/pyvalues/typed';
import { pyStr, pyRepr } from '@/lib/pyvalues/pyrepr';
import type { PyVal } from '@/lib/pyvalues/pyval';
import type { ResultRecordDto } from '@/lib/brokers/schema';
import { decodeKombu } from '@/lib/celery-protocol/kombu-json';
import { isoMs } from '../message';

// Celery 5.7's Redis result backend (celery/backends/redis.py + base.py): one STRING per task,
// `celery-task-meta-<id>` (after the backend's `global_keyprefix`), kombu JSON of
// `{status, result, traceback, children, date_done, [group_id, parent_id], task_id}` plus, with
// `result_extended`, `name, args, kwargs, worker, retries, queue`. Written with SETEX
// `result_expires` and PUBLISHed on the same name. A FAILURE's `result` is
// `{"exc_type", "exc_message": [...], "exc_module"}`.

export const META = 'celery-task-meta-';

export interface CeleryRecord {
  id: string;
  status: string;
  name: string | null;
  queue: string | null;
  args: PyVal | null;
  kwargs: PyVal | null;
  traceback: string | null;
  excType: string | null;
  excMessage: string | null;
  dateDoneMs: number | null;
  worker: string | null;
  /** The decoded record, and its exact text. */
  value: PyVal;
  raw: string;
}

const get = (v: PyVal, key: string): PyVal | null => (v.k === 'dict' ? (v.entries.find((e) => e[0] === key)?.[1] ?? null) : null);
const strOf = (v: PyVal | null): string | null => (v === null || v.k === 'none' ? null : v.k === 'str' ? v.v : pyStr(v));

/** A stored meta's text -> the record; null when it is not a Celery result. */
export function parseRecord(id: string, raw: string): CeleryRecord | null {
  let value: PyVal;
  try {
    value = decodeKombu(parseJson(raw)).value;
  } catch {
    return null;
  }
  if (value.k !== 'dict') return null;
  const status = strOf(get(value, 'status'));
  if (!status) return null;
  const result = get(value, 'result');
  const isExc = result?.k === 'dict' && get(result, 'exc_type') !== null;
  const msg = isExc ? get(result, 'exc_message') : null;
  const excMessage =
    msg === null ? null : msg.k === 'list' ? msg.items.map((x) => (x.k === 'str' ? x.v : pyRepr(x))).join(', ') : strOf(msg);
  const args = get(value, 'args');
  const kwargs = get(value, 'kwargs');
  return {
    id,
    status,
    name: strOf(get(value, 'name')),
    queue: strOf(get(value, 'queue')),
    args: args && args.k !== 'none' ? args : null,
    kwargs: kwargs && kwargs.k !== 'none' ? kwargs : null,
    traceback: strOf(get(value, 'traceback')),
    excType: isExc ? strOf(get(result, 'exc_type')) : null,
    excMessage,
    dateDoneMs: isoMs(strOf(get(value, 'date_done'))),
    worker: strOf(get(value, 'worker')),
    value,
    raw,
  };
}

/** What a failure says went wrong: its traceback, else `Type: message`. */
export function failureReason(r: CeleryRecord): string {
  if (r.traceback && r.traceback.trim()) return r.traceback;
  if (r.excType) return r.excMessage ? `${r.excType}: ${r.excMessage}` : r.excType;
  return r.status;
}

export function recordDto(r: CeleryRecord, ttlSeconds: number | null): ResultRecordDto {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    id: r.id,
    status: r.status,
    record: pyToTyped(r.value, { maxDepth: 16, maxString: 100_000, maxItems: 1000 }),
    excType: r.excType,
    excMessage: r.excMessage,
    traceback: r.traceback,
    dateDone: iso(r.dateDoneMs),
    expiresAt: ttlSeconds !== null && ttlSeconds > 0 ? new Date(Date.now() + ttlSeconds * 1000).toISOString() : null,
    worker: r.worker,
    name: r.name,
    raw: r.raw,
  };
}

/** The backend's keys for task results: one per id. `prefix` is the backend's `global_keyprefix`,
 *  with `_` added unless it ends in one of `:_-.` (`BaseKeyValueStoreBackend._add_global_keyprefix`). */
export function resultKeys(global: string) {
  const prefix = global && !':_-.'.includes(global.at(-1)!) ? `${global}_` : global;
  const escaped = prefix.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
  return {
    meta: (id: string) => `${prefix}${META}${id}`,
    pattern: `${escaped}${META}*`,
    idOf: (key: string) => key.slice(prefix.length + META.length),
    /** The console's replay claim: one replay of a failure at a time, across consoles. */
    replayClaim: (id: string) => `${prefix}celery-console-replay-${id}`,
  };
}

export async function readRecord(client: Redis, prefix: string, id: string): Promise<{ record: CeleryRecord; ttl: number } | null> {
  const key = resultKeys(prefix).meta(id);
  const [[, raw], [, ttl]] = ((await client.multi().get(key).ttl(key).exec()) ?? []) as [[unknown, string | null], [unknown, number]];
  if (raw === null) return null;
  const record = parseRecord(id, raw);
  return record ? { record, ttl } : null;
}
