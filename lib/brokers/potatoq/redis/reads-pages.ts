import 'server-only';
import type { Redis } from 'ioredis';
import { redisKeys } from './keys';
import { createHash } from 'node:crypto';
import { decodeCursor, encodeCursor, ROW_FIELDS, timeMs, toRow, type Page, type TaskRow } from './rows';
import { scriptRefused } from '@/lib/transports/redis/scripts';

// Keyset pages over potatoq's sorted sets: ready in claim order (score = priority band, then
// FIFO), scheduled by due time, running by lease deadline, dead letters newest first. A page
// costs O(log n + limit) at any depth: the cursor is the last (score, id), found again with
// ZRANK in one read-only script, never an offset.

/**
 * KEYS[1] = the set; ARGV: score, id, limit, rev. When the cursor's member is still there with
 * its score, the page is the next `limit` by rank. Otherwise (it was claimed, replayed, …) the
 * page starts at its score, with the ties at that score included (at most 1000) for the
 * caller to cut by member order: Lua compares strings with the locale, Redis with memcmp.
 */
const PAGE_LUA = `
local key, score, id, limit, rev = KEYS[1], ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4] == '1'
local cur = redis.call('ZSCORE', key, id)
if cur and tonumber(cur) == tonumber(score) then
  if rev then
    local r = redis.call('ZREVRANK', key, id)
    return {'rank', redis.call('ZRANGE', key, r + 1, r + limit, 'REV', 'WITHSCORES')}
  end
  local r = redis.call('ZRANK', key, id)
  return {'rank', redis.call('ZRANGE', key, r + 1, r + limit, 'WITHSCORES')}
end
local ties = math.min(redis.call('ZCOUNT', key, score, score), 1000)
if rev then
  return {'score', redis.call('ZRANGE', key, score, '-inf', 'BYSCORE', 'REV', 'LIMIT', 0, ties + limit, 'WITHSCORES')}
end
return {'score', redis.call('ZRANGE', key, score, '+inf', 'BYSCORE', 'LIMIT', 0, ties + limit, 'WITHSCORES')}
`;
const PAGE = { name: 'page', lua: PAGE_LUA, sha: createHash('sha1').update(PAGE_LUA).digest('hex') };

type Pair = [string, string];
const pairs = (flat: string[]): Pair[] => {
  const out: Pair[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push([flat[i]!, flat[i + 1]!]);
  return out;
};

/** Drops ties at the cursor's score that sort at or before the cursor's member (memcmp order, as Redis sorts them). */
export function afterCursor(entries: Pair[], cursor: { score: string; id: string }, rev: boolean): Pair[] {
  const s = Number(cursor.score);
  const id = Buffer.from(cursor.id);
  return entries.filter(([m, sc]) => {
    if (Number(sc) !== s) return true;
    const c = Buffer.compare(Buffer.from(m), id);
    return rev ? c < 0 : c > 0;
  });
}

/** One page of (member, score) from a sorted set, `limit + 1` fetched to know whether more follow. */
export async function zsetPage(
  client: Redis,
  key: string,
  limit: number,
  cursor: string | null,
  rev: boolean,
): Promise<{ entries: Pair[]; more: boolean }> {
  const c = cursor ? decodeCursor(cursor) : null;
  let entries: Pair[];
  if (!c) {
    const flat = rev ? await client.zrevrange(key, 0, limit, 'WITHSCORES') : await client.zrange(key, 0, String(limit), 'WITHSCORES');
    entries = pairs(flat);
  } else {
    let found: [string, string[]];
    try {
      found = (await runScriptWithKey(client, key, [c.score, c.id, limit + 1, rev ? '1' : '0'])) as [string, string[]];
    } catch (e) {
      if (!scriptRefused(e)) throw e;
      found = await afterWithoutScript(client, key, c, limit + 1, rev);
    }
    const [mode, flat] = found;
    entries = pairs(flat);
    if (mode === 'score') entries = afterCursor(entries, c, rev);
  }
  return { entries: entries.slice(0, limit), more: entries.length > limit };
}

async function runScriptWithKey(client: Redis, key: string, args: Array<string | number>): Promise<unknown> {
  try {
    return await client.evalsha(PAGE.sha, 1, key, ...args);
  } catch (e) {
    if (!(e instanceof Error) || !e.message.includes('NOSCRIPT')) throw e;
    return client.eval(PAGE.lua, 1, key, ...args);
  }
}

/** PAGE_LUA's steps as separate commands, for a user who may not run scripts (not atomic: a read). */
async function afterWithoutScript(
  client: Redis,
  key: string,
  c: { score: string; id: string },
  n: number,
  rev: boolean,
): Promise<[string, string[]]> {
  const cur = await client.zscore(key, c.id);
  if (cur !== null && Number(cur) === Number(c.score)) {
    const r = rev ? await client.zrevrank(key, c.id) : await client.zrank(key, c.id);
    if (r !== null)
      return [
        'rank',
        rev
          ? await client.zrevrange(key, r + 1, r + n, 'WITHSCORES')
          : await client.zrange(key, String(r + 1), String(r + n), 'WITHSCORES'),
      ];
  }
  const ties = Math.min(await client.zcount(key, c.score, c.score), 1000);
  const flat = rev
    ? await client.zrevrangebyscore(key, c.score, '-inf', 'WITHSCORES', 'LIMIT', 0, ties + n)
    : await client.zrangebyscore(key, c.score, '+inf', 'WITHSCORES', 'LIMIT', 0, ties + n);
  return ['score', flat];
}

export type SetKind = 'ready' | 'delayed' | 'active';

/** Ready (claim order), scheduled (due time) or running (lease deadline) tasks of one queue. */
export async function listTasks(
  client: Redis,
  prefix: string,
  queue: string,
  kind: SetKind,
  limit: number,
  cursor: string | null,
): Promise<Page<TaskRow>> {
  const k = redisKeys(prefix);
  const key = kind === 'ready' ? k.ready(queue) : kind === 'delayed' ? k.delayed(queue) : k.active(queue);
  return rowsPage(client, prefix, key, kind, limit, cursor, false);
}

/** Dead letters, newest first (`P:dead` by died ms, descending), with full reasons. */
export function listDead(client: Redis, prefix: string, limit: number, cursor: string | null): Promise<Page<TaskRow>> {
  return rowsPage(client, prefix, redisKeys(prefix).dead, 'dead', limit, cursor, true);
}

async function rowsPage(
  client: Redis,
  prefix: string,
  key: string,
  kind: SetKind | 'dead',
  limit: number,
  cursor: string | null,
  rev: boolean,
): Promise<Page<TaskRow>> {
  const { entries, raws, nowMs, more } = await pageRows(client, prefix, key, limit, cursor, rev);
  const items = entries.map(([id, score], i) => toRow(id, score, raws[i]!, nowMs, kind));
  const last = entries[entries.length - 1];
  return { items, nextCursor: more && last ? encodeCursor(last[1], last[0]) : null };
}

/**
 * zsetPage's page and each member's ROW_FIELDS (HMGET) and the server's TIME in one read-only
 * script: one round trip instead of two, and one reply instead of limit + 2 (a list of 100 dead
 * letters on Redis spent more in the client's per-command work than in Redis). KEYS[1] = the
 * set; ARGV: the job key prefix, the cursor's score and id ('' on page 1), limit + 1, rev. The
 * cursor is found again as PAGE_LUA finds it.
 */
const ROWS_LUA = `
local key, jp, score, id, n, rev = KEYS[1], ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4]), ARGV[5] == '1'
local mode, flat = 'rank', nil
if id == '' then
  if rev then flat = redis.call('ZREVRANGE', key, 0, n - 1, 'WITHSCORES') else flat = redis.call('ZRANGE', key, 0, n - 1, 'WITHSCORES') end
else
  local cur = redis.call('ZSCORE', key, id)
  if cur and tonumber(cur) == tonumber(score) then
    if rev then
      local r = redis.call('ZREVRANK', key, id)
      flat = redis.call('ZRANGE', key, r + 1, r + n, 'REV', 'WITHSCORES')
    else
      local r = redis.call('ZRANK', key, id)
      flat = redis.call('ZRANGE', key, r + 1, r + n, 'WITHSCORES')
    end
  else
    mode = 'score'
    local ties = math.min(redis.call('ZCOUNT', key, score, score), 1000)
    if rev then
      flat = redis.call('ZRANGE', key, score, '-inf', 'BYSCORE', 'REV', 'LIMIT', 0, ties + n, 'WITHSCORES')
    else
      flat = redis.call('ZRANGE', key, score, '+inf', 'BYSCORE', 'LIMIT', 0, ties + n, 'WITHSCORES')
    end
  end
end
local out = { redis.call('TIME'), mode, flat }
-- The look-ahead member (the n-th) only says whether more follow, except after a moved cursor,
-- where the caller first drops the ties at or before it.
local upto = mode == 'score' and #flat or math.min(#flat, 2 * (n - 1))
for i = 1, upto, 2 do out[#out + 1] = redis.call('HMGET', jp .. flat[i], ${ROW_FIELDS.map((f) => `'${f}'`).join(', ')}) end
return out
`;
const ROWS = { lua: ROWS_LUA, sha: createHash('sha1').update(ROWS_LUA).digest('hex') };

type Raw = Array<Buffer | null>;

/** One page of `key` in its order with each member's hash fields (ROW_FIELDS, as bytes) and the server's time. */
export async function pageRows(
  client: Redis,
  prefix: string,
  key: string,
  limit: number,
  cursor: string | null,
  rev: boolean,
): Promise<{ entries: Pair[]; raws: Raw[]; nowMs: number; more: boolean }> {
  const c = cursor ? decodeCursor(cursor) : null;
  const args = [redisKeys(prefix).job(''), c?.score ?? '0', c?.id ?? '', limit + 1, rev ? '1' : '0'];
  let out: unknown[];
  try {
    try {
      out = (await client.callBuffer('EVALSHA', [ROWS.sha, 1, key, ...args])) as unknown[];
    } catch (e) {
      if (!(e instanceof Error) || !e.message.includes('NOSCRIPT')) throw e;
      out = (await client.callBuffer('EVAL', [ROWS.lua, 1, key, ...args])) as unknown[];
    }
  } catch (e) {
    if (!scriptRefused(e)) throw e;
    return pageRowsPipelined(client, prefix, key, limit, cursor, rev);
  }
  const [t, mode, flat] = out as [Buffer[], Buffer, Buffer[]];
  let all = pairs(flat.map(String));
  const rawOf = new Map<string, Raw>();
  all.forEach(([id], i) => rawOf.set(id, out[3 + i] as Raw));
  if (String(mode) === 'score' && c) all = afterCursor(all, c, rev);
  const entries = all.slice(0, limit);
  return { entries, raws: entries.map(([id]) => rawOf.get(id)!), nowMs: timeMs(t.map(String)), more: all.length > limit };
}

/** pageRows without scripts (an ACL that refuses EVALSHA): the page, then TIME and the HMGETs pipelined. */
async function pageRowsPipelined(client: Redis, prefix: string, key: string, limit: number, cursor: string | null, rev: boolean) {
  const k = redisKeys(prefix);
  const { entries, more } = await zsetPage(client, key, limit, cursor, rev);
  const pipe = client.pipeline().time();
  for (const [id] of entries) pipe.hmgetBuffer(k.job(id), ...ROW_FIELDS);
  const res = (await pipe.exec()) ?? [];
  const raws = entries.map((_, i) => (res[i + 1]?.[1] as Raw | undefined) ?? []);
  return { entries, raws, nowMs: timeMs(res[0]?.[1]), more };
}
