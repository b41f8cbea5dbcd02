import 'server-only';
import type { Redis } from 'ioredis';
import type { AccessCheck } from '@/lib/brokers/types';
import { redisAclChecks, type RedisNeed } from '@/lib/transports/redis/acl';
import { redisKeys } from './keys';

/** A key name no potatoq writes: removing it, or a member from it, changes nothing. */
const PROBE = 'potatoq-console-doctor-probe';
const WRITES = ['replay', 'discard', 'revoke', 'purge', 'enqueue'] as const;

/** What the console needs of the login on potatoq's keys (keys.ts), each with harmless commands. */
export function potatoqRedisNeeds(prefix: string): RedisNeed[] {
  const k = redisKeys(prefix);
  return [
    {
      for: "read potatoq's keys",
      commands: [
        ['SSCAN', k.queues, '0', 'COUNT', '1'],
        ['ZCARD', k.dead],
        ['ZRANGE', k.ready(PROBE), '0', '0'],
        ['HGETALL', k.job(PROBE)],
        ['GET', k.result(PROBE)],
        ['HLEN', k.workers],
        ['SCAN', '0', 'MATCH', k.resultPattern, 'COUNT', '1'],
      ],
      off: [],
      fatal: true,
    },
    {
      for: "run the console's Lua scripts (EVALSHA, EVAL)",
      commands: [
        ['EVALSHA', '0'.repeat(40), '0'],
        ['EVAL', 'return 0', '0'],
      ],
      off: [...WRITES],
      instead: 'the overview reads key by key instead',
    },
    {
      for: "change potatoq's keys (inside those scripts)",
      commands: [
        ['ZREM', k.ready(PROBE), PROBE],
        ['HDEL', k.job(PROBE), 'q'],
        ['DEL', k.result(PROBE)],
      ],
      off: [...WRITES],
    },
  ];
}

export const checkPotatoqRedisAccess = (client: Redis, prefix: string, login: string): Promise<AccessCheck[]> =>
  redisAclChecks(client, potatoqRedisNeeds(prefix), login);
