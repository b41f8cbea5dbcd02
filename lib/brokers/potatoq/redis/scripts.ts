import 'server-only';
import { script } from '@/lib/transports/redis/scripts';

// The console's own Lua scripts for potatoq's Redis layout (keys.ts). Written from the
// semantics of potatoq 26.1a8's script (docs/brokers/redis.md), not copied from it, and
// stricter where potatoq loses or orphans work. Each runs atomically, so it cannot interleave
// with a worker's claim/complete/reap (which are scripts too). Like potatoq's, they take no
// KEYS (the keys depend on the hashes they read): Redis Cluster is refused before they run.
//
// The fence: a hash with `tok` (or `st = active`) belongs to a worker and is never modified.
// Every per-id script returns one code per id, in order; writes.ts turns them into outcomes.

export const COMMON = `
local P = ARGV[1]
local PRIO = 1099511627776
local function jkey(id) return P .. ':job:' .. id end
local function qkey(q) return P .. ':q:' .. q end
local function owned(v_st, v_tok) return v_tok ~= false or v_st == 'active' end
local function store_result(id, rec, ttl)
  local rk = P .. ':result:' .. id
  if ttl > 0 then redis.call('SET', rk, rec, 'PX', ttl) else redis.call('SET', rk, rec) end
  if redis.call('EXISTS', P .. ':waiting:' .. id) == 1 then
    redis.call('RPUSH', P .. ':notify:' .. id, 1)
    redis.call('PEXPIRE', P .. ':notify:' .. id, 60000)
  end
end
`;

/**
 * ARGV: P, (id, sha1 of the payload read, payload without eta)… → per id
 * `ok | missing | running | not-dead:<st> | no-queue | changed`.
 * potatoq's `requeue_dead`: only a hash with `st = dead` (and no token); `ZREM P:dead`,
 * `HDEL r died`, `d = 0`, `st = ready`, `DEL` the result, back of its priority band with a
 * new `INCR P:seq`, marker re-armed. When the caller gives a payload without `eta` (the letter
 * had one), it replaces `p` only if `p` is still the payload it was computed from (`changed`
 * otherwise, nothing done). Also `SADD P:queues` (potatoq doesn't): the reaper only visits
 * queues in that set.
 */
const REPLAY = `${COMMON}
local out = {}
for i = 2, #ARGV, 3 do
  local id, sha, newp = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  local jk = jkey(id)
  local v = redis.call('HMGET', jk, 'q', 'pr', 'st', 'tok', 'p')
  if not v[3] then out[#out + 1] = 'missing'
  elseif owned(v[3], v[4]) then out[#out + 1] = 'running'
  elseif v[3] ~= 'dead' then out[#out + 1] = 'not-dead:' .. v[3]
  elseif not v[1] then out[#out + 1] = 'no-queue'
  elseif newp ~= '' and redis.sha1hex(v[5] or '') ~= sha then out[#out + 1] = 'changed'
  else
    redis.call('ZREM', P .. ':dead', id)
    redis.call('HDEL', jk, 'r', 'died')
    redis.call('HSET', jk, 'd', 0, 'st', 'ready')
    if newp ~= '' then redis.call('HSET', jk, 'p', newp) end
    redis.call('DEL', P .. ':result:' .. id)
    redis.call('SADD', P .. ':queues', v[1])
    local score = -(tonumber(v[2]) or 0) * PRIO + redis.call('INCR', P .. ':seq')
    redis.call('ZADD', qkey(v[1]) .. ':ready', score, id)
    redis.call('ZADD', qkey(v[1]) .. ':marker', 0, '0')
    out[#out + 1] = 'ok'
  end
end
return out
`;

/**
 * ARGV: P, id, sha1 of the payload read, edited payload, queue ('' keeps `q`), priority ('' keeps
 * `pr`) → `ok | missing | running | not-dead:<st> | no-queue | changed`. REPLAY for one letter
 * with its payload, queue and priority replaced, in the same atomic step that takes it out of
 * `P:dead`: the letter is never both gone and unwritten. `changed`: the payload is no longer the
 * one the edit was computed from (nothing done).
 */
const REPLAY_EDITED = `${COMMON}
local id, sha, newp, newq, newpr = ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6]
local jk = jkey(id)
local v = redis.call('HMGET', jk, 'q', 'pr', 'st', 'tok', 'p')
if not v[3] then return 'missing' end
if owned(v[3], v[4]) then return 'running' end
if v[3] ~= 'dead' then return 'not-dead:' .. v[3] end
if redis.sha1hex(v[5] or '') ~= sha then return 'changed' end
local q = newq ~= '' and newq or v[1]
if not q then return 'no-queue' end
local pr = newpr ~= '' and newpr or (v[2] or '0')
redis.call('ZREM', P .. ':dead', id)
redis.call('HDEL', jk, 'r', 'died')
redis.call('HSET', jk, 'd', 0, 'st', 'ready', 'p', newp, 'q', q, 'pr', pr)
redis.call('DEL', P .. ':result:' .. id)
redis.call('SADD', P .. ':queues', q)
redis.call('ZADD', qkey(q) .. ':ready', -(tonumber(pr) or 0) * PRIO + redis.call('INCR', P .. ':seq'), id)
redis.call('ZADD', qkey(q) .. ':marker', 0, '0')
return 'ok'
`;

/**
 * ARGV: P, ids… → per id `ok | orphan | missing | running | not-dead:<st>`.
 * Deletes a dead letter: `ZREM P:dead` + `DEL` the hash, only where `st = dead`. An id left in
 * `P:dead` without a hash (potatoq's own revoke leaves those) is removed: `orphan`. With
 * `forgetResult` (a letter that moved to another broker) its result goes too, as replay forgets
 * it: `ok-forgot` when there was one.
 */
const discardScript = (forgetResult: boolean) => `${COMMON}
local out = {}
for i = 2, #ARGV do
  local id = ARGV[i]
  local jk = jkey(id)
  local v = redis.call('HMGET', jk, 'st', 'tok')
  if not v[1] then
    if redis.call('ZREM', P .. ':dead', id) == 1 then out[#out + 1] = 'orphan' else out[#out + 1] = 'missing' end
  elseif owned(v[1], v[2]) then out[#out + 1] = 'running'
  elseif v[1] ~= 'dead' then out[#out + 1] = 'not-dead:' .. v[1]
  else
    redis.call('ZREM', P .. ':dead', id)
    redis.call('DEL', jk)
    ${forgetResult ? "if redis.call('DEL', P .. ':result:' .. id) == 1 then out[#out + 1] = 'ok-forgot' else out[#out + 1] = 'ok' end" : "out[#out + 1] = 'ok'"}
  end
end
return out
`;
const DISCARD = discardScript(false);
const DISCARD_MOVED = discardScript(true);

/**
 * ARGV: P, ttl_ms, (id, REVOKED record JSON)… → per id
 * `ok | running | dead | finished:<status> | unknown | orphan`.
 * potatoq's revoke deletes a waiting task (`ZREM` ready and delayed of its queue, `DEL` the
 * hash) and stores a REVOKED record for every id (PX ttl, notify waiters). Stricter:
 * a running task gets no record (`running`: its own result would overwrite it); a dead letter
 * is refused (`dead`: potatoq deletes its hash and orphans its `P:dead` entry); a task that
 * already finished keeps its SUCCESS/FAILURE result (`finished:`); an orphaned `P:dead` entry
 * is removed and marked (`orphan`); any other unknown id is marked, as potatoq does (`unknown`).
 */
const REVOKE = `${COMMON}
local ttl = tonumber(ARGV[2])
local out = {}
for i = 3, #ARGV, 2 do
  local id, rec = ARGV[i], ARGV[i + 1]
  local jk = jkey(id)
  local v = redis.call('HMGET', jk, 'q', 'st', 'tok')
  if v[2] then
    if owned(v[2], v[3]) then out[#out + 1] = 'running'
    elseif v[2] == 'dead' then out[#out + 1] = 'dead'
    else
      if v[1] then
        redis.call('ZREM', qkey(v[1]) .. ':ready', id)
        redis.call('ZREM', qkey(v[1]) .. ':delayed', id)
      end
      redis.call('DEL', jk)
      store_result(id, rec, ttl)
      out[#out + 1] = 'ok'
    end
  else
    local prev = redis.call('GET', P .. ':result:' .. id)
    local status = prev and string.match(prev, '"status":"(%u+)"')
    if status == 'SUCCESS' or status == 'FAILURE' then out[#out + 1] = 'finished:' .. status
    else
      local orphan = redis.call('ZREM', P .. ':dead', id) == 1
      store_result(id, rec, ttl)
      if orphan then out[#out + 1] = 'orphan' else out[#out + 1] = 'unknown' end
    end
  end
end
return out
`;

/**
 * ARGV: P, queue, 'ready'|'delayed', offset, limit → {purged, skipped, stale, examined}.
 * One bounded slice of a purge: members `offset .. offset+limit-1` of the set; deletes those
 * whose hash says this queue and the set's own state (`ready`/`delayed`) with no token; drops
 * members without a hash (claim skips them anyway); leaves anything else (`skipped`, which the
 * caller steps over with `offset`). A claim runs before or after a slice, never inside it.
 */
const PURGE_SLICE = `${COMMON}
local q, kind, offset, limit = ARGV[2], ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5])
local zk = qkey(q) .. ':' .. kind
local ids = redis.call('ZRANGE', zk, offset, offset + limit - 1)
local purged, skipped, stale = 0, 0, 0
for _, id in ipairs(ids) do
  local jk = jkey(id)
  local v = redis.call('HMGET', jk, 'q', 'st', 'tok')
  if not v[2] then
    redis.call('ZREM', zk, id)
    stale = stale + 1
  elseif owned(v[2], v[3]) or v[1] ~= q or v[2] ~= kind then skipped = skipped + 1
  else
    redis.call('ZREM', zk, id)
    redis.call('DEL', jk)
    purged = purged + 1
  end
end
return {purged, skipped, stale, #ids}
`;

/**
 * ARGV: P, (id, queue, priority, delay_ms, payload)… → per id `ok | exists`.
 * potatoq's `enqueue`: nothing if `P:job:<id>` exists; else `SADD P:queues`, then
 * `HSET q p pr d=0 st=delayed` + `ZADD delayed (TIME ms + delay)`, or `st=ready` + ready at
 * `-pr·2^40 + INCR seq` + marker. `pr` goes through tonumber as potatoq's does.
 */
const ENQUEUE = `${COMMON}
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local out = {}
for i = 2, #ARGV, 5 do
  local id, q, prio, delay, payload = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2]), tonumber(ARGV[i + 3]), ARGV[i + 4]
  local jk = jkey(id)
  if redis.call('EXISTS', jk) == 1 then out[#out + 1] = 'exists'
  else
    redis.call('SADD', P .. ':queues', q)
    if delay > 0 then
      redis.call('HSET', jk, 'q', q, 'p', payload, 'pr', prio, 'd', 0, 'st', 'delayed')
      redis.call('ZADD', qkey(q) .. ':delayed', now + delay, id)
    else
      redis.call('HSET', jk, 'q', q, 'p', payload, 'pr', prio, 'd', 0, 'st', 'ready')
      redis.call('ZADD', qkey(q) .. ':ready', -prio * PRIO + redis.call('INCR', P .. ':seq'), id)
      redis.call('ZADD', qkey(q) .. ':marker', 0, '0')
    end
    out[#out + 1] = 'ok'
  end
end
return out
`;

/**
 * ARGV: P, n, after (a member, '' for the newest), its score → `[scanned, orphans, last member,
 * last score, queue, count, …]`: the queue (`HGET q`) of each of the next `n` members of `P:dead`
 * (newest first) after `after`, tallied server-side, and how many have no hash. Read-only. The
 * overview's dead counts in a few commands and replies instead of one `HGET` and reply per
 * letter. Sliced so that Redis is never held long (2,000 letters ≈ 2 ms): each slice starts
 * after the previous slice's last member, found again by `ZREVRANK` (by its score when it left
 * meanwhile), so letters dying or replayed between slices shift nothing.
 */
const DEAD_BY_QUEUE = `
local key, jp, n = ARGV[1] .. ':dead', ARGV[1] .. ':job:', tonumber(ARGV[2])
local start = 0
if ARGV[3] ~= '' then
  local r = redis.call('ZREVRANK', key, ARGV[3])
  if r then start = r + 1 else start = redis.call('ZCOUNT', key, '(' .. ARGV[4], '+inf') end
end
local flat = redis.call('ZREVRANGE', key, start, start + n - 1, 'WITHSCORES')
local counts, order, orphans = {}, {}, 0
for i = 1, #flat, 2 do
  local q = redis.call('HGET', jp .. flat[i], 'q')
  if q then
    local c = counts[q]
    if c then counts[q] = c + 1 else counts[q] = 1; order[#order + 1] = q end
  else orphans = orphans + 1 end
end
local out = { #flat / 2, orphans, flat[#flat - 1] or '', flat[#flat] or '' }
for _, q in ipairs(order) do out[#out + 1] = q; out[#out + 1] = counts[q] end
return out
`;

export const SCRIPTS = {
  replay: script('replay', REPLAY),
  replayEdited: script('replay-edited', REPLAY_EDITED),
  discard: script('discard', DISCARD),
  discardMoved: script('discard-moved', DISCARD_MOVED),
  revoke: script('revoke', REVOKE),
  purgeSlice: script('purge', PURGE_SLICE),
  enqueue: script('enqueue', ENQUEUE),
  deadByQueue: script('dead-by-queue', DEAD_BY_QUEUE),
} as const;
