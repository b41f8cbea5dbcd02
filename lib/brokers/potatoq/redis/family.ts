import 'server-only';
import type { Redis } from 'ioredis';
import { buildFamily, type FamilyNode, type FamilySource } from '@/lib/brokers/family/build';
import type { TaskFamily } from '@/lib/brokers/family/schema';
import type { ResultBackend } from '../results';
import { nodeOfMessage, nodeOfResult, POTATOQ_FAMILY_UNSEEN, POTATOQ_FAMILY_WORDS } from '../family';
import { redisKeys } from './keys';

// The family on potatoq's Redis broker: a task's hash (`P:job:<id>`: `p` its message, `st` its
// state) and its result; a chord's parts in `P:chord:<group>` (index -> result, 7 days). Redis
// keeps no index by root or group id, so members are reached through the links each message
// carries (its parent, root, chain steps, chord callback), never by a scan of every job.

const ST = {
  delayed: { status: 'waiting', state: 'scheduled', link: 'task' },
  ready: { status: 'waiting', state: 'ready', link: 'task' },
  active: { status: 'running', state: 'running', link: 'task' },
  dead: { status: 'dead', state: 'dead', link: 'dead' },
} as const;

export function redisFamily(client: Redis, prefix: string, results: ResultBackend, id: string, limit: number): Promise<TaskFamily | null> {
  const k = redisKeys(prefix);
  const src: FamilySource = {
    async node(x): Promise<FamilyNode | null> {
      const [p, st] = (await client.hmget(k.job(x), 'p', 'st')) as [string | null, string | null];
      if (p !== null) return nodeOfMessage(x, p, ST[st as keyof typeof ST] ?? ST.ready);
      const r = await results.getResult(x).catch(() => null);
      return r ? { ...nodeOfResult(x, r.status, null), task: r.name } : null;
    },
    byRoot: async () => null,
    byGroup: async () => null,
    chord: (gid) => results.chord(gid),
    words: POTATOQ_FAMILY_WORDS,
    unseen: [
      ...POTATOQ_FAMILY_UNSEEN,
      "Redis keeps no index by root or group id: a group's other parts and a workflow's other branches are found only where a member's message names them (its parent, its chain, its chord's callback), not by searching every job.",
    ],
  };
  return buildFamily(src, id, limit);
}
