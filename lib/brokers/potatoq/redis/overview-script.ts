import 'server-only';
import type { Redis } from 'ioredis';
import { runScript, script } from '@/lib/transports/redis/scripts';
import type { RawOverview, RawQueue } from './overview-raw';

// The overview's per-queue reads as one read-only script call: counts, the due time of the next
// scheduled task, the head of each priority band (up to MAX_BANDS) and their payloads, and the
// server's time. One round trip and one reply instead of 3 + MAX_BANDS pipelined ones, each
// waiting for the last. Up to ONE_CALL queues go in the first call, found by the script itself;
// past that the caller lists the queues and sends them ONE_CALL at a time, so Redis is never
// held for more than ONE_CALL queues' reads (about 25 commands each).

/** Queues one script call reads. */
export const ONE_CALL = 50;
/** Calls sent before the first reply is read, past ONE_CALL queues. */
export const IN_FLIGHT = 4;

/**
 * ARGV: P, max queues for the call to list them itself, bands, then queue names (none: the
 * script lists `P:queues` when it has at most that many). → `{ TIME, SCARD P:queues, ZCARD
 * P:dead, listed (0/1), row… }`, a row being `{ name, ZCARD ready, ZCARD delayed, ZCARD active,
 * ZCOUNT active -inf now, next due score or false, more bands unvisited (0/1), id, payload, … }`
 * with one id and payload (`HGET p`, false when the hash is gone) per band head, the claim
 * order's first first. Bands are `-p·2^40 + [0, 2^40)`: the next band starts at
 * `floor(score / 2^40) · 2^40 + 2^40`, as `nextBand` computes it in Node (both are doubles).
 */
const OVERVIEW = `
local P, listMax, bands = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local PRIO = 1099511627776
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local card = redis.call('SCARD', P .. ':queues')
local out = { t, card, redis.call('ZCARD', P .. ':dead'), 0 }
local names = {}
if #ARGV > 3 then
  for i = 4, #ARGV do names[#names + 1] = ARGV[i] end
elseif card <= listMax then
  names = redis.call('SMEMBERS', P .. ':queues')
  out[4] = 1
else
  return out
end
for _, q in ipairs(names) do
  local base = P .. ':q:' .. q
  local rk, ak = base .. ':ready', base .. ':active'
  local due = redis.call('ZRANGE', base .. ':delayed', 0, 0, 'WITHSCORES')
  local row = { q, redis.call('ZCARD', rk), redis.call('ZCARD', base .. ':delayed'), redis.call('ZCARD', ak),
    redis.call('ZCOUNT', ak, '-inf', now), due[2] or false, 0 }
  local h = redis.call('ZRANGE', rk, 0, 0, 'WITHSCORES')
  local seen = 0
  while h[1] do
    row[#row + 1] = h[1]
    row[#row + 1] = redis.call('HGET', P .. ':job:' .. h[1], 'p')
    seen = seen + 1
    if seen >= bands then row[7] = 1; break end
    local start = math.floor(tonumber(h[2]) / PRIO) * PRIO + PRIO
    h = redis.call('ZRANGEBYSCORE', rk, string.format('%.17g', start), '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
  end
  out[#out + 1] = row
end
return out
`;

const OVERVIEW_SCRIPT = script('overview', OVERVIEW);

interface Call {
  nowMs: number;
  card: number;
  deadTotal: number;
  /** The call listed `P:queues` itself (it had at most ONE_CALL members). */
  listed: boolean;
  queues: RawQueue[];
}

const num = (v: unknown) => Number(v);

function parse(reply: unknown): Call {
  const out = reply as unknown[];
  const t = out[0] as [string, string];
  const queues = out.slice(4).map((r): RawQueue => {
    const row = r as unknown[];
    const heads: RawQueue['heads'] = [];
    for (let i = 7; i < row.length; i += 2) {
      const payload = row[i + 1];
      heads.push({ id: String(row[i]), payload: typeof payload === 'string' ? payload : null });
    }
    return {
      name: String(row[0]),
      ready: num(row[1]),
      scheduled: num(row[2]),
      running: num(row[3]),
      expiredLeases: num(row[4]),
      nextDueMs: row[5] === null || row[5] === undefined ? null : num(row[5]),
      approximate: num(row[6]) === 1,
      heads,
    };
  });
  return {
    nowMs: num(t[0]) * 1000 + Math.floor(num(t[1]) / 1000),
    card: num(out[1]),
    deadTotal: num(out[2]),
    listed: num(out[3]) === 1,
    queues,
  };
}

const call = async (client: Redis, prefix: string, bands: number, names: string[]) =>
  parse(await runScript(client, OVERVIEW_SCRIPT, [prefix, ONE_CALL, bands, ...names]));

/**
 * The overview's per-queue reads by script: one call for up to ONE_CALL queues. `listQueues`
 * lists them past that (sorted, at most the overview's maximum); its calls then read them in
 * order. Throws what the server throws (a refused script included: the caller falls back).
 */
export async function overviewByScript(
  client: Redis,
  prefix: string,
  bands: number,
  listQueues: (card: number) => Promise<string[]>,
): Promise<Omit<RawOverview, 'queuesCapped'> & { card: number }> {
  const first = await call(client, prefix, bands, []);
  if (first.listed) return { nowMs: first.nowMs, card: first.card, deadTotal: first.deadTotal, queues: first.queues };
  const names = await listQueues(first.card);
  const queues: RawQueue[] = [];
  let last = first;
  // IN_FLIGHT calls at a time on the connection: no wait for each reply before sending the next,
  // and Redis still runs one call (ONE_CALL queues) at a time between other clients' commands.
  for (let i = 0; i < names.length; i += ONE_CALL * IN_FLIGHT) {
    const wave = [];
    for (let j = i; j < Math.min(names.length, i + ONE_CALL * IN_FLIGHT); j += ONE_CALL)
      wave.push(call(client, prefix, bands, names.slice(j, j + ONE_CALL)));
    for (const c of await Promise.all(wave)) {
      last = c;
      queues.push(...c.queues);
    }
  }
  // The last call's time is the latest read, as the pipelined path's one TIME precedes its reads.
  return { nowMs: last.nowMs, card: first.card, deadTotal: first.deadTotal, queues };
}
