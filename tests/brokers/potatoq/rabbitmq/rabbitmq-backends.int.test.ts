// The RabbitMQ adapter with potatoq's SQLite and PostgreSQL result backends (Redis is the
// battery's): FAILURE records of dead letters, REVOKED marks potatoq's worker would honour,
// heartbeats and registered-task names, all written or read by the real potatoq.
// int-lane: owns rabbitmq (RabbitMQ as a whole, conservatively)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '@/tests/support/potatoq-seeder';
import { PG_URL, pgAvailable } from '@/tests/support/postgres';
import { newTag, rabbitAdapter, rabbitVersion, RMQ4_MGMT, RMQ4_URL, spawnRabbitSeeder } from '@/tests/support/rabbitmq';

execFileSync('bash', [path.join(ROOT, 'scripts/ensure-venv.sh')], { stdio: 'inherit' });
const available = await rabbitVersion(RMQ4_URL, 'RabbitMQ 4.x', (m) => m >= 4);
const pg = available ? await pgAvailable() : false;

interface Backend {
  url: string;
  isolation: string;
  options: Record<string, unknown>;
  done(): void;
}

function sqliteBackend(): Backend {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rmq-results-'));
  return {
    url: `sqlite:///${dir}/results.db`,
    isolation: newTag(),
    options: {},
    done: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

function pgBackend(): Backend {
  const schema = newTag();
  return { url: PG_URL, isolation: schema, options: { schema }, done: () => undefined };
}

const cases: Array<[string, () => Backend, boolean]> = [
  ['SQLite', sqliteBackend, Boolean(available)],
  ['PostgreSQL', pgBackend, Boolean(available && pg)],
];

describe.each(cases)('RabbitMQ 4 with a %s result backend', (_name, make, on) => {
  it.skipIf(!on)(
    'shows FAILURE results of letters, writes REVOKED marks potatoq reads, and lists heartbeats and registered names',
    async () => {
      const b = make();
      const queue = `rb${b.isolation}`;
      const py = spawnRabbitSeeder(RMQ4_URL, b.url, b.isolation);
      const a = rabbitAdapter(RMQ4_URL, { managementUrl: RMQ4_MGMT, resultBackend: b.url, resultBackendOptions: b.options });
      try {
        const id = await py.call<string>('dead_letter', {
          task: 'ct.b',
          queue,
          reason: 'Traceback (most recent call last):\nValueError: b\n',
        });
        const d = await a.getDead(id);
        expect(d?.result?.status).toBe('FAILURE');
        expect(d?.result?.excType).toBe('ValueError');
        const other = `revoked-${b.isolation}`;
        expect((await a.revoke([other])).succeeded).toHaveLength(1);
        expect(await py.call('result', { id: other })).toMatchObject({
          status: 'REVOKED',
          name: null,
          keys: expect.arrayContaining(['task_id', 'date_done']),
        });
        expect((await a.listResults({ status: 'REVOKED', limit: 50 })).items.map((r) => r.id)).toContain(other);
        await py.call('heartbeat', {
          id: `w-${b.isolation}`,
          info: { hostname: 'potatoq@h', pid: 7, queues: [queue], concurrency: 1, running: [], registered: null },
          age: 0,
        });
        const w = (await a.listWorkers()).find((x) => x.id === `w-${b.isolation}`);
        expect(w).toMatchObject({ status: 'alive', queues: [queue], pid: '7' });
        await py.call('store_registered', { digest: b.isolation.padEnd(16, '0'), names: [`ct.reg.${b.isolation}`] });
        expect(await a.taskNames()).toEqual(expect.arrayContaining(['ct.b', `ct.reg.${b.isolation}`]));
        expect((await a.overview()).serverInfo).toContain(`results in ${b.url.startsWith('sqlite') ? 'sqlite' : 'postgres'}`);
      } finally {
        await a.close();
        await py.call('cleanup').catch(() => undefined);
        await py.close();
        b.done();
      }
    },
  );
});
