import 'server-only';
import type { Redis } from 'ioredis';
import { createHash } from 'node:crypto';
import { buildMessage, decodePayload, reencodeWithoutEta, type BuildMessageInput } from '@/lib/potatoq';
import { redisKeys } from './keys';
import { runScript, type LuaScript } from '@/lib/transports/redis/scripts';
import { SCRIPTS } from './scripts';

// The console's writes on potatoq's Redis layout: each batch is one script (scripts.ts).
// Outcome codes are the console's (`ok | missing | running | conflict | invalid | error`);
// `detail` keeps the script's own code for logs and tests.

export type RedisOutcomeCode = 'ok' | 'missing' | 'running' | 'conflict' | 'invalid' | 'error';
export interface RedisOutcome {
  id: string;
  outcome: RedisOutcomeCode;
  message: string;
  detail: string;
}

/** Ids per script call: a few milliseconds of Redis time, so workers' claims never wait long. */
export const SCRIPT_BATCH = 500;

const RUNNING = 'is running (a worker holds its lease); nothing was changed';
const NOT_DEAD = (st: string) => `is ${st === 'delayed' ? 'scheduled' : st}, not a dead letter; nothing was changed`;
const MISSING = 'not in the dead letters (already replayed, discarded or trimmed?)';

export function describeCode(action: 'replay' | 'discard' | 'revoke' | 'enqueue', id: string, code: string): RedisOutcome {
  const o = (outcome: RedisOutcomeCode, message: string): RedisOutcome => ({ id, outcome, message, detail: code });
  if (code === 'running') return o('running', RUNNING);
  // Not a dead letter (any more): nothing to do, as for an id that is gone (replayed meanwhile, ...).
  if (code.startsWith('not-dead:')) return o('missing', NOT_DEAD(code.slice(9)));
  switch (action) {
    case 'replay':
      if (code === 'ok') return o('ok', 'requeued as ready, at the back of its priority');
      if (code === 'no-queue') return o('invalid', 'the dead letter has no queue (`q`); it was kept');
      if (code === 'changed') return o('conflict', 'the letter changed while it was being replayed; it was kept, try again');
      return o('missing', MISSING);
    case 'discard':
      if (code === 'ok') return o('ok', 'dead letter deleted');
      if (code === 'ok-forgot') return o('ok', 'dead letter and its result deleted');
      if (code === 'orphan') return o('ok', 'removed an orphaned dead-letter entry (its task was already deleted, e.g. by potatoq revoke)');
      return o('missing', MISSING);
    case 'revoke':
      if (code === 'ok') return o('ok', 'removed from the queue and marked REVOKED');
      if (code === 'dead') return o('conflict', 'is a dead letter, not waiting: nothing was changed (discard it to remove it)');
      if (code.startsWith('finished:'))
        return o('missing', `already finished with ${code.slice(9)}; nothing to revoke, its result was kept`);
      if (code === 'orphan') return o('ok', 'removed an orphaned dead-letter entry and marked REVOKED');
      return o('ok', 'no waiting task with this id; marked REVOKED anyway, as potatoq does');
    case 'enqueue':
      if (code === 'ok') return o('ok', 'enqueued');
      return o('conflict', 'a task with this id already exists; nothing was written');
  }
}

const describeError = (e: unknown) => `Redis failed: ${(e instanceof Error ? e.message : String(e)).replace(/rediss?:\/\/\S+/g, '<url>')}`;

/**
 * Runs `step` per SCRIPT_BATCH ids, in order. The first batch that fails marks its ids `error`
 * (its script may or may not have run: re-running is safe, every script re-checks `st`) and
 * stops: later ids are `error` "not attempted", so the outcomes say where it stopped.
 */
async function inBatches<T>(ids: T[], idOf: (x: T) => string, step: (part: T[]) => Promise<RedisOutcome[]>): Promise<RedisOutcome[]> {
  const out: RedisOutcome[] = [];
  for (let i = 0; i < ids.length; i += SCRIPT_BATCH) {
    const part = ids.slice(i, i + SCRIPT_BATCH);
    try {
      out.push(...(await step(part)));
    } catch (e) {
      for (const x of part) out.push({ id: idOf(x), outcome: 'error', message: describeError(e), detail: 'error' });
      const why = `not attempted: Redis failed on an earlier batch (${describeError(e)})`;
      for (const x of ids.slice(i + SCRIPT_BATCH)) out.push({ id: idOf(x), outcome: 'error', message: why, detail: 'not-attempted' });
      break;
    }
  }
  return out;
}

function perId(client: Redis, s: LuaScript, action: 'replay' | 'discard', prefix: string, ids: string[]): Promise<RedisOutcome[]> {
  return inBatches(
    ids,
    (id) => id,
    async (part) => {
      const codes = (await runScript(client, s, [prefix, ...part])) as string[];
      return part.map((id, k) => describeCode(action, id, codes[k] ?? 'missing'));
    },
  );
}

const unique = (ids: string[]) => [...new Set(ids)];

/**
 * Replay (potatoq's `requeue_dead`), with `eta` removed from the payload as the SQL brokers do
 * (potatoq's Redis replay keeps it; its worker ignores it once the task is ready, but a stale
 * `eta` would make the task look scheduled and its wait since then). Letters potatoq cannot
 * decode are kept and reported `invalid`: replaying them would crash every worker slot that
 * claims them again (potatoq itself replays them; `allowUndecodable` does the same).
 */
export function replayDead(
  client: Redis,
  prefix: string,
  ids: string[],
  opts: { allowUndecodable?: boolean } = {},
): Promise<RedisOutcome[]> {
  const k = redisKeys(prefix);
  return inBatches(
    unique(ids),
    (id) => id,
    async (part) => {
      const invalid = new Map<string, RedisOutcome>();
      const rewrite = new Map<string, { sha: string; json: string }>();
      if (!opts.allowUndecodable) {
        const pipe = client.pipeline();
        for (const id of part) pipe.hgetBuffer(k.job(id), 'p');
        const res = (await pipe.exec()) ?? [];
        part.forEach((id, j) => {
          const p = res[j]?.[1];
          if (!Buffer.isBuffer(p)) return;
          const d = decodePayload(new Uint8Array(p), { maxDepth: 1, maxItems: 1, maxString: 1 });
          if (d.kind === 'foreign') {
            invalid.set(id, {
              id,
              outcome: 'invalid',
              message: `potatoq can't decode this payload, so replaying it would crash the worker that claims it; the letter was kept: ${d.reason}`,
              detail: 'undecodable',
            });
          } else if (d.fields.some(([name, v]) => name === 'eta' && v.t !== 'null')) {
            const again = reencodeWithoutEta(p.toString('utf8'));
            if (again.ok) rewrite.set(id, { sha: createHash('sha1').update(p).digest('hex'), json: again.json });
          }
        });
      }
      const run = part.filter((id) => !invalid.has(id));
      const args = run.flatMap((id) => {
        const r = rewrite.get(id);
        return [id, r?.sha ?? '', r?.json ?? ''];
      });
      const codes = run.length ? ((await runScript(client, SCRIPTS.replay, [prefix, ...args])) as string[]) : [];
      const done = new Map(run.map((id, i) => [id, describeCode('replay', id, codes[i] ?? 'missing')]));
      return part.map((id) => invalid.get(id) ?? done.get(id)!);
    },
  );
}

/** Discard dead letters (and orphaned `P:dead` entries). */
export function discardDead(client: Redis, prefix: string, ids: string[]): Promise<RedisOutcome[]> {
  return perId(client, SCRIPTS.discard, 'discard', prefix, unique(ids));
}

/** Discard for letters that moved to another broker: each one's result goes too (`P:result:<id>`), as replay forgets it. */
export function discardMoved(client: Redis, prefix: string, ids: string[]): Promise<RedisOutcome[]> {
  return perId(client, SCRIPTS.discardMoved, 'discard', prefix, unique(ids));
}

/** A Python float as `json.dumps` writes it (`1.0`, not `1`). */
const pyFloat = (n: number) => (/[.eE]/.test(String(n)) ? String(n) : `${n}.0`);

/** The REVOKED record potatoq's Redis `revoke` stores: `ResultRecord(id, REVOKED, date_done=time.time()).to_dict()`, compact; `name` is null on Redis. */
export function revokedRecord(id: string, now: number): string {
  return (
    `{"task_id":${JSON.stringify(id)},"status":"REVOKED","result":null,"traceback":null,"meta":null,` +
    `"date_done":${pyFloat(now)},"name":null,"args":null,"kwargs":null,"retries":0,"worker":null,"date_started":null,"enqueued_at":null}`
  );
}

/** Revoke; `resultExpires` is potatoq's `result_expires` in seconds (0: no expiry), as `control.revoke` passes it. */
export async function revokeTasks(client: Redis, prefix: string, ids: string[], resultExpires = 86400): Promise<RedisOutcome[]> {
  const all = unique(ids);
  const ttl = resultExpires > 0 ? Math.trunc(resultExpires * 1000) : 0;
  return inBatches(
    all,
    (id) => id,
    async (part) => {
      const now = Date.now() / 1000;
      const codes = (await runScript(client, SCRIPTS.revoke, [
        prefix,
        ttl,
        ...part.flatMap((id) => [id, revokedRecord(id, now)]),
      ])) as string[];
      return part.map((id, k) => describeCode('revoke', id, codes[k] ?? 'unknown'));
    },
  );
}

export interface PurgeResult {
  queue: string;
  purged: number;
  /** Members left alone: their hash is running, in another queue or another state. */
  skipped: number;
  /** Members without a hash (left by an earlier revoke or purge), dropped. */
  stale: number;
}

/**
 * Purges a queue's ready and scheduled tasks in bounded slices, each one atomic script; with
 * `pauseMs`, waits between slices (paced: workers' claims run in between, each task ends up
 * either purged or claimed, never both).
 */
export async function purgeQueue(
  client: Redis,
  prefix: string,
  queue: string,
  opts: { slice?: number; pauseMs?: number } = {},
): Promise<PurgeResult> {
  const slice = opts.slice ?? 1000;
  const r: PurgeResult = { queue, purged: 0, skipped: 0, stale: 0 };
  for (const kind of ['ready', 'delayed'] as const) {
    let offset = 0;
    for (;;) {
      const [purged, skipped, stale, examined] = (await runScript(client, SCRIPTS.purgeSlice, [
        prefix,
        queue,
        kind,
        offset,
        slice,
      ])) as number[];
      r.purged += purged ?? 0;
      r.skipped += skipped ?? 0;
      r.stale += stale ?? 0;
      offset += skipped ?? 0;
      if ((examined ?? 0) < slice) break;
      if (opts.pauseMs) await new Promise((r) => setTimeout(r, opts.pauseMs));
    }
  }
  return r;
}

export interface EnqueuedTask extends RedisOutcome {
  queue: string;
  state: 'ready' | 'scheduled';
  payload: string;
}

/**
 * Enqueue as `Task.apply_async` → `RedisBroker.enqueue` writes it: the message built by
 * lib/potatoq (compact, `root_id`, tags), `delay_ms = int((eta - now) * 1000)` from the
 * producer's clock added to Redis `TIME` by the script. Throws BuildMessageError on bad input.
 */
export async function enqueueTasks(client: Redis, prefix: string, inputs: BuildMessageInput[]): Promise<EnqueuedTask[]> {
  const now = Date.now() / 1000;
  const built = inputs.map((input) => buildMessage({ ...input, now: input.now ?? now }));
  const out: EnqueuedTask[] = [];
  for (let i = 0; i < built.length; i += SCRIPT_BATCH) {
    const part = built.slice(i, i + SCRIPT_BATCH);
    const args = part.flatMap((m) => {
      const delay = m.eta !== null && m.eta > now ? Math.trunc((m.eta - now) * 1000) : 0;
      return [m.id, m.queue, m.priority, delay, m.json];
    });
    let codes: string[] | Error;
    try {
      codes = (await runScript(client, SCRIPTS.enqueue, [prefix, ...args])) as string[];
    } catch (e) {
      codes = e instanceof Error ? e : new Error(String(e));
    }
    part.forEach((m, k) => {
      const delayed = m.eta !== null && m.eta > now && Math.trunc((m.eta - now) * 1000) > 0;
      const o =
        codes instanceof Error
          ? { id: m.id, outcome: 'error' as const, message: describeError(codes), detail: 'error' }
          : describeCode('enqueue', m.id, codes[k] ?? 'exists');
      out.push({ ...o, queue: m.queue, state: delayed ? 'scheduled' : 'ready', payload: m.json });
    });
  }
  return out;
}
