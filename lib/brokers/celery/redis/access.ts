import 'server-only';
import type { AccessCheck } from '@/lib/brokers/types';
import { checkServer, evictionCheck } from '@/lib/transports/redis/server';
import { redisAclChecks, type RedisNeed } from '@/lib/transports/redis/acl';
import type { CeleryRedisCtx } from './context';
import { resultKeys } from './results';

/** A queue and key name no Celery app uses: reading it, or removing a member from it, changes nothing. */
const PROBE = 'celery-console-doctor-probe';

/**
 * What the console needs of the broker's login on kombu's keys (keys.ts), each with harmless
 * commands. LPUSHX stands for LPUSH (on a list that does not exist it writes nothing); the
 * pidbox broadcast is asked on a probe channel beside Celery's, never on the workers' own one
 * (without ACL DRYRUN the command runs, and the workers would read it).
 */
export function celeryBrokerNeeds(ctx: Pick<CeleryRedisCtx, 'keys' | 'db'>): RedisNeed[] {
  const k = ctx.keys;
  const queue = k.bucket(PROBE, 0);
  return [
    {
      for: "read Celery's queues (kombu's lists, bindings and unacked hash; MULTI/EXEC)",
      commands: [
        ['LLEN', queue],
        ['LRANGE', queue, '0', '0'],
        ['SMEMBERS', k.binding(PROBE)],
        ['SCAN', '0', 'MATCH', k.bindingPattern, 'COUNT', '1'],
        ['HLEN', k.unacked],
        ['ZRANGE', k.unackedIndex, '0', '0'],
        // Waiting messages are read by a script that returns their headers only.
        ['EVALSHA', '0'.repeat(40), '0'],
        ['EVAL', 'return 0', '0'],
        // Reads are pipelined in MULTI/EXEC; EXEC alone answers "without MULTI" where allowed.
        ['EXEC'],
      ],
      off: [],
      fatal: true,
    },
    {
      for: "send and remove Celery's messages (LPUSH, LREM, DEL)",
      commands: [
        ['LPUSHX', queue, PROBE],
        ['LREM', queue, '0', PROBE],
        ['DEL', queue],
      ],
      off: ['replay', 'revoke', 'purge', 'enqueue'],
    },
    {
      for: 'ask the workers over the pidbox (PUBLISH, and a reply queue of its own)',
      commands: [
        ['PUBLISH', `${k.pidboxChannel(ctx.db)}.${PROBE}`, ''],
        ['SREM', k.binding('reply.celery.pidbox'), PROBE],
        ['LPOP', `${k.prefix}${PROBE}.reply.celery.pidbox`],
      ],
      off: ['workers'],
      instead: 'live workers are unknown; a revoke still removes the waiting message',
    },
  ];
}

/** What it needs of the result backend's login: failures are read there, and replay claims and discards written. */
export function celeryBackendNeeds(resultPrefix: string): RedisNeed[] {
  const r = resultKeys(resultPrefix);
  return [
    {
      for: "read the result backend's records (GET, SCAN, MULTI/EXEC)",
      commands: [['GET', r.meta(PROBE)], ['TTL', r.meta(PROBE)], ['SCAN', '0', 'MATCH', r.pattern, 'COUNT', '1'], ['EXEC']],
      off: ['browseDead', 'replay', 'discard', 'results'],
    },
    {
      for: "change the result backend's records (SET, DEL, EVAL)",
      commands: [
        ['DEL', r.replayClaim(PROBE)],
        ['EVAL', 'return 0', '0'],
      ],
      off: ['replay', 'discard', 'revoke'],
    },
    {
      // The failure index's subscription (result-index.ts), on the exact pattern it subscribes to.
      for: 'follow the records Celery writes as it writes them (PSUBSCRIBE on their names)',
      commands: [['PSUBSCRIBE', r.pattern]],
      off: [],
      instead: 'failures are found by reading every record on each poll, slower on a large backend',
    },
  ];
}

/**
 * The doctor's rows for Celery on Redis: the broker's eviction policy, then the broker login's
 * ACL, then the result backend's (a login and a server of its own where configured so).
 */
export async function checkCeleryRedisAccess(ctx: CeleryRedisCtx, login: string, backendLogin: string | null): Promise<AccessCheck[]> {
  const out: AccessCheck[] = [evictionCheck(await checkServer(ctx.client))];
  out.push(...(await redisAclChecks(ctx.client, celeryBrokerNeeds(ctx), login)));
  if (ctx.backend) {
    const rows = await redisAclChecks(ctx.backend, celeryBackendNeeds(ctx.resultPrefix), backendLogin ?? 'default');
    out.push(...rows.map((r) => ({ ...r, check: r.check.replace(/^Redis ACL: /, 'Redis ACL (result backend): ') })));
  }
  return out;
}
