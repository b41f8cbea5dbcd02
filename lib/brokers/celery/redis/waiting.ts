import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import type { TaskCall } from '@/lib/brokers/types';
import { decodeKombuEnvelope } from '@/lib/celery-protocol/message';
import { loadsKombu } from '@/lib/celery-protocol/kombu-json';
import { parseJson } from '@/lib/pyvalues/json';
import { plainPy, type PyVal } from '@/lib/pyvalues/pyval';
import { isoMs } from '../message';
import type { CeleryRedisCtx } from './context';
import { PRIORITY_STEPS } from './keys';
import { locateMessage, PARTIAL_FIND } from './reads-tasks';
import { exactItem } from './writes';

// Waiting Celery messages leaving the broker as calls (lib/brokers/move-waiting.ts): read whole,
// then taken with one Lua script that removes the exact item (LREM 1) and, only if it did, SETs
// a marker, so a worker that BRPOPs it first leaves it to the worker (nothing removed, no marker),
// and a move that stopped right after the take can tell it took it (`tookWaiting`).

/** Kept as long as the import's marker (lib/brokers/celery/redis/import.ts). */
const TAKEN_TTL_SECONDS = 30 * 86400;
const takenKey = (ctx: CeleryRedisCtx, id: string) => `${ctx.keys.prefix}_potatoq_console.taken.${id}`;

const TAKE = `if redis.call('LREM', KEYS[1], 1, ARGV[1]) == 1 then
  redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[3]) return 1 end return 0`;

interface Claim {
  key: string;
  raw: string;
}

const invalid = (why: string) => new ConsoleError('InvalidInput', why);
const get = (v: PyVal | undefined, key: string): PyVal | undefined =>
  v?.k === 'dict' ? v.entries.find((e) => e[0] === key)?.[1] : undefined;
const some = (v: PyVal | undefined) => v !== undefined && v.k !== 'none' && !(v.k === 'list' && v.items.length === 0);

/** A protocol 2 message as a call of Celery's call model; InvalidInput where it is not one. */
export function callOfMessage(raw: string, queue: string): TaskCall {
  let body: PyVal | null = null;
  let crash: string | null = null;
  let env: PyVal;
  try {
    env = plainPy(parseJson(raw));
  } catch {
    throw invalid('the message is not JSON: the console moves JSON messages only');
  }
  const info = decodeKombuEnvelope(env, (text) => {
    const d = loadsKombu(text);
    crash = d.crash;
    body = d.value;
    return d.value;
  });
  if (crash) throw invalid(`its body cannot be decoded (${String(crash)})`);
  const b = body as PyVal | null;
  if (!info.task || !info.id || b?.k !== 'list' || b.items.length !== 3)
    throw invalid('not a Celery protocol 2 task message (task name and id in the headers, body [args, kwargs, embed])');
  const [args, kwargs, embed] = b.items as [PyVal, PyVal, PyVal];
  if (args.k !== 'list' || kwargs.k !== 'dict') throw invalid('its body has no list of args or dict of kwargs');
  const links = ['callbacks', 'errbacks', 'chain', 'chord'].filter((k) => some(get(embed, k)));
  if (links.length) throw invalid(`it carries ${links.join(', ')}: a job of another system cannot run them`);
  const headers = get(env, 'headers');
  const ignore = get(headers, 'ignore_result');
  const pri = get(get(env, 'properties'), 'priority');
  return {
    id: info.id,
    task: info.task,
    queue,
    args,
    kwargs,
    priority: pri?.k === 'int' ? Number(pri.text) : null,
    expiresMs: isoMs(info.expires),
    etaMs: isoMs(info.eta),
    ignoreResult: ignore?.k === 'bool' ? ignore.v : null,
    rootId: info.rootId && info.rootId !== info.id ? info.rootId : null,
    parentId: info.parentId,
  };
}

export async function peekWaiting(ctx: CeleryRedisCtx, id: string): Promise<{ call: TaskCall; claim: string } | null> {
  const { found, complete } = await locateMessage(ctx, id);
  // Not found in a scan that stopped early is not "not waiting": say so, take nothing.
  if (!found && !complete) throw invalid(`${PARTIAL_FIND}: it may still wait deeper in a queue`);
  if (!found || !('waiting' in found)) return null;
  const w = found.waiting;
  const item = await exactItem(ctx, id, w);
  if (!item) return null;
  const raw = item.toString('utf8');
  const claim: Claim = { key: ctx.keys.bucket(w.queue, PRIORITY_STEPS[w.bucket]!), raw };
  return { call: callOfMessage(raw, w.queue), claim: JSON.stringify(claim) };
}

export async function takeWaiting(ctx: CeleryRedisCtx, id: string, claim: string): Promise<boolean> {
  const c = JSON.parse(claim) as Claim;
  const r = await ctx.client.eval(TAKE, 2, c.key, takenKey(ctx, id), c.raw, String(Date.now()), String(TAKEN_TTL_SECONDS));
  return Number(r) === 1;
}

export async function tookWaiting(ctx: CeleryRedisCtx, id: string): Promise<boolean> {
  return (await ctx.client.exists(takenKey(ctx, id))) === 1;
}
