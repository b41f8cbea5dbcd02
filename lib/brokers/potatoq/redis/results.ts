import 'server-only';
import type { Redis } from 'ioredis';
import { ConsoleError } from '@/lib/brokers/errors';
import type { Page, ResultListQuery, ResultSummary } from '@/lib/brokers/schema';
import { mapResult, registeredNames } from '../mappers';
import { isInternalResult, mapWorker, REGISTERED_PREFIX, revokedRecord, type ResultBackend } from '../results';
import { globEscape, potatoqPrefix } from './keys';
import { connectRedis } from '@/lib/transports/redis/server';

/** Result keys read for a listing: SCAN is unordered, so the newest-first page is built from at most this many. */
const SCAN_CAP = 10_000;

/** Chords larger than this are counted (HLEN) but their failed parts are not read. */
const CHORD_READ_MAX = 10_000;

/**
 * potatoq's Redis result backend: `<prefix>:result:<id>` (SET with PX = result_expires), the
 * `<prefix>:workers` hash and a chord's parts in `<prefix>:chord:<group>` (index -> result,
 * 7 days). `options` are the backend's transport options (`global_keyprefix`,
 * else `prefix`, default `potatoq`, read by `potatoqPrefix` exactly as potatoq does); the URL
 * is any potatoq Redis URL (`redis://`, `rediss://`, `valkey://`, `valkeys://`, `unix://`).
 */
export function createRedisResults(
  url: string,
  options: { global_keyprefix?: unknown; prefix?: unknown },
  timeoutMs: number,
): ResultBackend {
  const client = connectRedis(url, timeoutMs);
  return redisResultsOn(client, potatoqPrefix(options), async () => client.disconnect());
}

/** The same reads and writes on a client someone else owns (the Redis broker's own adapter). */
export function redisResultsOn(client: Redis, p: string, close: () => Promise<void> = async () => undefined): ResultBackend {
  const wrap = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof ConsoleError) throw e;
      const msg = e instanceof Error ? e.message : String(e);
      throw new ConsoleError('BrokerUnavailable', `the Redis result backend failed: ${msg.replace(/rediss?:\/\/\S+/g, '<url>')}`);
    }
  };

  async function scanResults(): Promise<{ ids: string[]; capped: boolean }> {
    const ids: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${globEscape(p)}:result:*`, 'COUNT', 1000);
      cursor = next;
      for (const k of keys) ids.push(k.slice(p.length + ':result:'.length));
    } while (cursor !== '0' && ids.length < SCAN_CAP);
    return { ids, capped: cursor !== '0' };
  }

  return {
    kind: 'redis',
    getResult: (id) =>
      wrap(async () => {
        const key = `${p}:result:${id}`;
        const [[, data], [, pttl]] = (await client.multi().get(key).pttl(key).exec()) as [[unknown, string | null], [unknown, number]];
        if (data === null) return null;
        return mapResult(id, '', data, pttl > 0 ? (Date.now() + pttl) / 1000 : null);
      }),
    storeRevoked: (ids, expires) =>
      wrap(async () => {
        const pipe = client.pipeline();
        const now = Date.now() / 1000;
        for (const id of ids) pipe.set(`${p}:result:${id}`, revokedRecord(id, now, null), 'PX', Math.round(expires * 1000));
        const res = await pipe.exec();
        const failed = res?.find(([err]) => err);
        if (failed) throw failed[0];
      }),
    workers: (live) =>
      wrap(async () => {
        const raw = await client.hgetall(`${p}:workers`);
        const digests = new Map<string, string[] | null>();
        for (const v of Object.values(raw)) {
          try {
            const d = (JSON.parse(v) as { registered?: unknown }).registered;
            if (typeof d === 'string') digests.set(d, null);
          } catch {}
        }
        for (const d of digests.keys()) {
          const rec = await client.get(`${p}:result:${REGISTERED_PREFIX}${d}`);
          digests.set(d, rec === null ? null : registeredNames(rec));
        }
        return Object.keys(raw)
          .sort()
          .map((id) => mapWorker(id, raw[id] ?? null, null, live, (d) => digests.get(d) ?? null));
      }),
    listResults: (q: ResultListQuery) =>
      wrap(async (): Promise<Page<ResultSummary>> => {
        const { ids } = await scanResults();
        const wanted = ids.filter((id) => !isInternalResult(id));
        const rows: ResultSummary[] = [];
        for (let i = 0; i < wanted.length; i += 500) {
          const chunk = wanted.slice(i, i + 500);
          const pipe = client.pipeline();
          for (const id of chunk) pipe.get(`${p}:result:${id}`).pttl(`${p}:result:${id}`);
          const res = (await pipe.exec()) ?? [];
          chunk.forEach((id, j) => {
            const data = res[2 * j]?.[1] as string | null | undefined;
            const pttl = res[2 * j + 1]?.[1] as number | undefined;
            if (data === null || data === undefined) return;
            const m = mapResult(id, '', data, pttl !== undefined && pttl > 0 ? (Date.now() + pttl) / 1000 : null);
            if (q.status && m.status !== q.status) return;
            rows.push({ id, status: m.status, name: m.name, dateDone: m.dateDone, expiresAt: m.expiresAt });
          });
        }
        // Newest first by expiry (store time + result_expires), like the SQL backends.
        rows.sort((a, b) => (b.expiresAt ?? '').localeCompare(a.expiresAt ?? '') || a.id.localeCompare(b.id));
        const start = q.cursor ? Math.max(0, Number.parseInt(q.cursor, 10) || 0) : 0;
        const page = rows.slice(start, start + q.limit);
        const next = start + q.limit < rows.length ? String(start + q.limit) : null;
        return { items: page, nextCursor: next };
      }),
    chord: (gid) =>
      wrap(async () => {
        const key = `${p}:chord:${gid}`;
        const done = await client.hlen(key);
        if (done === 0) return null;
        if (done > CHORD_READ_MAX)
          return { done, failed: null, note: `more than ${CHORD_READ_MAX.toLocaleString('en-US')} parts: failed ones not counted` };
        const values = await client.hvals(key);
        return { done, failed: values.filter((v) => v.includes('"__chord_error__"')).length };
      }),
    registeredNames: () =>
      wrap(async () => {
        const names = new Set<string>();
        let cursor = '0';
        do {
          const [next, keys] = await client.scan(cursor, 'MATCH', `${globEscape(p)}:result:${REGISTERED_PREFIX}*`, 'COUNT', 1000);
          cursor = next;
          for (const k of keys) {
            const rec = await client.get(k);
            if (rec !== null) for (const n of registeredNames(rec)) names.add(n);
          }
        } while (cursor !== '0');
        return [...names];
      }),
    close,
  };
}
