import 'server-only';
import type { Redis } from 'ioredis';
import { buildFamily, type FamilyNode, type FamilySource } from '@/lib/brokers/family/build';
import type { TaskFamily } from '@/lib/brokers/family/schema';
import { CELERY_FAMILY_UNSEEN, CELERY_FAMILY_WORDS, nodeOfCeleryMessage, nodeOfCeleryRecord } from '../family';
import type { CeleryInfo } from '@/lib/celery-protocol/message';
import type { CeleryRedisCtx, ResultCtx } from './context';
import { messageOf } from './reads-tasks';
import { readRecord } from './results';

// Celery's Redis result backend keeps a chord's finished parts in
// `celery-taskset-meta-<group>.j` (a sorted set, or a list with result_chord_ordered off) as
// `[1, task id, state, result]`, and its size in `.s` until the callback is sent.

const GROUP = 'celery-taskset-meta-';

async function chordParts(backend: Redis, prefix: string, gid: string): Promise<{ parts: [string, string][]; size: number | null } | null> {
  const key = `${prefix}${GROUP}${gid}`;
  const [type, size, diff] = await Promise.all([backend.type(`${key}.j`), backend.get(`${key}.s`), backend.get(`${key}.t`)]);
  if (type === 'none') return null;
  // Bounded: a chord of thousands keeps its first 10,000 parts counted by ZCARD, read in part.
  const raw = type === 'zset' ? await backend.zrange(`${key}.j`, '0', '9999') : await backend.lrange(`${key}.j`, 0, 9999);
  const parts: [string, string][] = [];
  for (const r of raw) {
    try {
      const v = JSON.parse(r) as unknown;
      if (Array.isArray(v) && typeof v[1] === 'string' && typeof v[2] === 'string') parts.push([v[1], v[2]]);
    } catch {
      // Not Celery's encoding (a custom serializer): counted, not named.
      parts.push(['', '']);
    }
  }
  return { parts, size: size === null ? null : Number(size) + Number(diff ?? 0) };
}

/** A waiting or reserved message by id, where the broker can find one without taking it. */
export type MessageLookup = (id: string) => Promise<{ info: CeleryInfo; reserved: boolean } | null>;

/** The family on Celery with a Redis result backend (whatever the broker): records from the
 *  backend, messages from `message` where the broker can look one up (else `noMessages` says why). */
export function celeryFamily(
  ctx: ResultCtx,
  message: MessageLookup | { why: string },
  id: string,
  limit: number,
): Promise<TaskFamily | null> {
  const backend = ctx.backend;
  const record = async (x: string): Promise<FamilyNode | null> => {
    if (!backend) return null;
    const r = await readRecord(backend, ctx.resultPrefix, x);
    return r ? nodeOfCeleryRecord(x, r.record.status, r.record.name, r.record.value) : null;
  };
  const src: FamilySource = {
    async node(x) {
      const rec = await record(x);
      if (rec && ['succeeded', 'failed', 'revoked'].includes(rec.status)) return rec;
      const m = typeof message === 'function' ? await message(x) : null;
      if (m) return nodeOfCeleryMessage(x, m.info, m.reserved, m.reserved ? 'reserved' : 'ready');
      return rec;
    },
    byRoot: async () => null,
    async byGroup(gid, cap) {
      if (!backend) return null;
      const c = await chordParts(backend, ctx.resultPrefix, gid);
      if (!c) return null;
      const nodes: FamilyNode[] = [];
      for (const [pid] of c.parts.slice(0, cap)) {
        if (!pid) continue;
        const n = await src.node(pid);
        if (n) nodes.push(n);
      }
      return { nodes, more: c.parts.length > cap };
    },
    async chord(gid) {
      if (!backend) return null;
      const c = await chordParts(backend, ctx.resultPrefix, gid);
      if (!c) return null;
      return {
        done: c.parts.length,
        failed: c.parts.filter(([, s]) => s === 'FAILURE').length,
        total: c.size,
        ...(c.parts.length >= 10_000 ? { note: 'the chord holds 10,000 finished parts or more: the first 10,000 are counted' } : {}),
      };
    },
    words: CELERY_FAMILY_WORDS,
    unseen: [
      ...(backend
        ? []
        : [
            'No result backend is configured (option resultBackend): Celery keeps children, group membership and chord counters only there, so this family shows only what a waiting message says.',
          ]),
      ...(typeof message === 'function' ? [] : [message.why]),
      ...CELERY_FAMILY_UNSEEN,
    ],
  };
  return buildFamily(src, id, limit);
}

/** On a Redis broker: messages waiting in kombu's lists or reserved in its unacked hash. */
export const celeryRedisFamily = (ctx: CeleryRedisCtx, id: string, limit: number) =>
  celeryFamily(
    ctx,
    async (x) => {
      const m = await messageOf(ctx, x);
      return m ? { info: m.env.info, reserved: m.reserved } : null;
    },
    id,
    limit,
  );
