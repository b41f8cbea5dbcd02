import 'server-only';
import type { Redis } from 'ioredis';
import type { TaskCall } from '@/lib/brokers/types';
import { runScript, script } from '@/lib/transports/redis/scripts';
import { callOfMessage } from '../calls';
import { MOVED_META, revokedRecord } from '../records';
import { redisKeys } from './keys';
import { COMMON } from './scripts';

// potatoq's waiting tasks on Redis (a job hash with `st` ready or delayed and no worker token,
// its id in the queue's ready or delayed set) leaving as calls (lib/brokers/move-waiting.ts).
// The take is one script, so no worker's claim (a script too) runs inside it: the exact task
// (same payload, still waiting, no token) leaves both sets, its hash goes, and REVOKED is
// stored with the console's mark, as potatoq's revoke stores it: find-by-id says where it went,
// and a stopped move can tell it took the task.

/**
 * ARGV: P, ttl_ms, id, payload read, REVOKED record → `ok | gone`. `gone`: no such waiting
 * task any more (a worker claimed it, it was revoked, moved or changed): nothing done.
 */
const TAKE_WAITING = script(
  'take-waiting',
  `${COMMON}
local ttl, id, claim, rec = tonumber(ARGV[2]), ARGV[3], ARGV[4], ARGV[5]
local jk = jkey(id)
local v = redis.call('HMGET', jk, 'q', 'st', 'tok', 'p')
if not v[2] or owned(v[2], v[3]) or (v[2] ~= 'ready' and v[2] ~= 'delayed') or v[4] ~= claim then return 'gone' end
if v[1] then
  redis.call('ZREM', qkey(v[1]) .. ':ready', id)
  redis.call('ZREM', qkey(v[1]) .. ':delayed', id)
end
redis.call('DEL', jk)
store_result(id, rec, ttl)
return 'ok'
`,
);

export async function peekWaiting(client: Redis, prefix: string, id: string): Promise<{ call: TaskCall; claim: string } | null> {
  const k = redisKeys(prefix);
  const [q, st, tok, p] = (await client.hmget(k.job(id), 'q', 'st', 'tok', 'p')) as Array<string | null | undefined>;
  if (st !== 'ready' && st !== 'delayed') return null;
  if (tok != null || p == null || q == null) return null;
  const due = st === 'delayed' ? await client.zscore(k.delayed(q), id) : null;
  const call = callOfMessage(id, p, q);
  return { call: due === null ? call : { ...call, etaMs: Number(due) }, claim: p };
}

export async function takeWaiting(client: Redis, prefix: string, id: string, claim: string, resultExpires: number): Promise<boolean> {
  const ttl = resultExpires > 0 ? Math.trunc(resultExpires * 1000) : 0;
  const rec = revokedRecord(id, Date.now() / 1000, null, MOVED_META);
  return (await runScript(client, TAKE_WAITING, [prefix, ttl, id, claim, rec])) === 'ok';
}

export async function tookWaiting(client: Redis, prefix: string, id: string): Promise<boolean> {
  const r = await client.get(redisKeys(prefix).result(id));
  return r !== null && r.includes('"status":"REVOKED"') && r.includes(MOVED_META);
}
