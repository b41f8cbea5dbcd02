// The shared adapter battery on real PostgreSQL 15: every test gets its own schema created by
// the real `potatoq migrate` and seeded by the real potatoq (tests/py/seeder_pg.py); one run
// uses the default prefix, one a non-default prefix with an awkward schema name.
// int-lane: isolated (the battery names Celery only as a task name and a message format)
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe } from 'vitest';
import { runAdapterContract, type ContractFixture, type ContractSeeder } from '@/tests/contract';
import { ROOT } from '@/tests/support/potatoq-seeder';
import { runPotatoqBattery } from '../battery';
import { spawnSeeder } from '@/tests/support/postgres-seeder';
import { createPostgresAdapter } from '@/lib/brokers/potatoq/postgres/adapter';
import { dropSchema, migratedSchema, PG_URL, pgAvailable } from '@/tests/support/postgres';

execFileSync('bash', [path.join(ROOT, 'scripts/ensure-venv.sh')], { stdio: 'inherit' });
const available = await pgAvailable();

export const adapterFor = (options: Record<string, unknown>, readOnly = false, url = PG_URL) =>
  createPostgresAdapter({ id: 'pg', name: 'PostgreSQL test', url, readOnly, options });

function fixtureWith(prefix: string) {
  return async (): Promise<ContractFixture> => {
    const t = migratedSchema(prefix);
    const py = spawnSeeder(PG_URL, t.options);
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
      jobState: async (id) => (await py.call<{ state: 'ready' } | null>('job', { id }))?.state ?? null,
      jobPayload: async (id) => (await py.call<{ payload: string } | null>('job', { id }))?.payload ?? null,
      isDead: async (id) => (await py.call('dead', { id })) !== null,
      result: (id) => py.call('result', { id }),
      queueSizes: () => py.call('queue_sizes'),
    };
    const adapters = [adapterFor(t.options)];
    return {
      adapter: adapters[0]!,
      makeSecond: () => {
        const b = adapterFor(t.options);
        adapters.push(b);
        return b;
      },
      seeder,
      async cleanup() {
        await Promise.all(adapters.map((a) => a.close()));
        await py.close();
        await dropSchema(t.schema);
      },
    };
  };
}

describe.skipIf(!available)('postgres', () => {
  runAdapterContract('postgres (default prefix)', fixtureWith('potatoq_'));
  runAdapterContract('postgres (prefix "Odd-Prefix.")', fixtureWith('Odd-Prefix."q_'));
  runPotatoqBattery('postgres (default prefix)', fixtureWith('potatoq_'), { tables: true });
  runPotatoqBattery('postgres (prefix "Odd-Prefix.")', fixtureWith('Odd-Prefix."q_'), { tables: true });
});
