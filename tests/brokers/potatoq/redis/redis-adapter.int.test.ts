// The shared adapter battery and potatoq's own on real Redis and real Valkey (a `valkey://`
// URL, given as it is to potatoq and to the console): every test gets its own key prefix,
// seeded by the real potatoq 26.1a8 (tests/py/seeder_redis_contract.py: its enqueue, claim and
// dead-letter scripts). On each server one run uses `global_keyprefix` on db 0, one `prefix`
// with glob characters and trailing colons on db 7.
// int-lane: uses redis/0 redis/7 valkey/0 valkey/7 (a key prefix per test)
import { describe } from 'vitest';
import { runAdapterContract, type ContractFixture, type ContractSeeder } from '@/tests/contract';
import { spawnPySeeder } from '@/tests/support/potatoq-seeder';
import { runPotatoqBattery } from '../battery';
import { createRedisAdapter } from '@/lib/brokers/potatoq/redis/adapter';
import { potatoqPrefix } from '@/lib/brokers/potatoq/redis/keys';
import { connectRedis } from '@/lib/transports/redis/server';
import { dropPrefix, newPrefix, redisTargets } from '@/tests/support/redis';

const targets = await redisTargets();
const onDb = (base: string, db: number) => base.replace(/\/\d*$/, '') + `/${db}`;

function fixtureWith(base: string, db: number, options: (p: string) => Record<string, string>) {
  return async (): Promise<ContractFixture> => {
    const url = onDb(base, db);
    const opts = options(newPrefix());
    const py = spawnPySeeder('seeder_redis_contract.py', [url, JSON.stringify(opts)]);
    const seeder: ContractSeeder = {
      enqueue: (m) => py.call('enqueue', { ...m }),
      enqueueMany: (ms) => py.call('enqueue_many', { items: ms }),
      claim: (queue) => py.call('claim', { queue, timeout: 0.2 }),
      deadLetter: (m) => py.call('dead_letter', { ...m, died_ago: m.diedAgo }),
      deadLetterRaw: (r) => py.call('dead_letter_raw', r),
      enqueueRaw: (r) => py.call('job_raw', r),
      heartbeat: (id, info, age) => py.call('heartbeat', { id, info, age }),
      garbageWorker: (id, info) => py.call('raw_worker', { id, info }),
      storeRegistered: (digest, names) =>
        py.call('store_result', { id: `potatoq-registered-${digest}`, state: 'SUCCESS', result: names, expires: 7 * 86400 }),
      jobState: async (id) => (await py.call<{ state: string } | null>('job', { id }))?.state ?? null,
      jobPayload: async (id) => (await py.call<{ payload: string } | null>('job', { id }))?.payload ?? null,
      isDead: async (id) => (await py.call('dead', { id })) !== null,
      result: (id) => py.call('result', { id }),
      queueSizes: () => py.call('queue_sizes'),
    };
    const make = () => createRedisAdapter({ id: 'redis', name: 'Redis test', url, readOnly: false, options: opts });
    const adapters = [make()];
    return {
      adapter: adapters[0]!,
      makeSecond: () => {
        const b = make();
        adapters.push(b);
        return b;
      },
      seeder,
      taskInPayloadOnly: true,
      sharedIds:
        'potatoq on Redis keeps a task and its dead letter in the same hash (P:job:<id>): a waiting task cannot have a dead letter’s id',
      async cleanup() {
        await Promise.all(adapters.map((a) => a.close()));
        await py.close();
        const c = connectRedis(url);
        await dropPrefix(c, potatoqPrefix(opts));
        c.disconnect();
      },
    };
  };
}

describe.skipIf(targets.length === 0)('redis', () => {
  for (const { name, url } of targets) {
    const plain = fixtureWith(url, 0, (p) => ({ global_keyprefix: p }));
    const odd = fixtureWith(url, 7, (p) => ({ prefix: `${p}[x]*::` }));
    runAdapterContract(`${name} (global_keyprefix, db 0)`, plain);
    runAdapterContract(`${name} (prefix with glob characters, db 7)`, odd);
    runPotatoqBattery(`${name} (global_keyprefix, db 0)`, plain, { tables: false });
    runPotatoqBattery(`${name} (prefix with glob characters, db 7)`, odd, { tables: false });
  }
});
