// The fan-out tree of the real Simple Durable Jobs v4.5.1 as a task family, on PostgreSQL 15 and
// MySQL 9: a parent fans out three sub-jobs that fail; the console reads the family from the
// parent and from any sub-job, counts the fan-out from its own row, and names the waiting
// parent each failed sub-job holds back.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSdjAdapter } from '@/lib/brokers/sdj/adapter';
import { adapterContext } from '@/lib/brokers/systems-context';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { isConsoleError } from '@/lib/brokers/errors';
import { createTestDb, serverAvailable, type Dialect, type TestDb } from './databases';
import { BUILD_TIMEOUT_MS, buildHarness, harness, removeHarness, runWorker, sdjAvailability, type Harness } from './harness';
import { uuidBytes, uuidFromBytes } from './jobs-table';

const sdj = sdjAvailability();
const servers: Record<Dialect, boolean> = {
  postgres: sdj.ok && (await serverAvailable('postgres')),
  mysql: sdj.ok && (await serverAvailable('mysql')),
};
let h: Harness;
beforeAll(() => {
  if (sdj.ok && (servers.postgres || servers.mysql)) h = buildHarness(sdj.source);
}, BUILD_TIMEOUT_MS + 10_000);
afterAll(() => removeHarness(h));

for (const dialect of ['postgres', 'mysql'] as const) {
  describe.skipIf(!servers[dialect])(`Simple Durable Jobs family on ${dialect}`, () => {
    let db: TestDb;
    let a: BrokerAdapter;
    beforeEach(async () => {
      db = await createTestDb(dialect);
      harness(h, ['migrate', '--url', db.url]);
      a = createSdjAdapter({ id: 'sdj', name: 'SDJ', url: db.url, readOnly: false, options: { lockWaitMs: 500 } }, adapterContext());
    });
    afterEach(async () => {
      await a?.close();
      await db?.drop();
    });
    const p = (n: number) => (dialect === 'postgres' ? `$${n}` : '?');
    const id16 = (id: string) => (dialect === 'postgres' ? id : uuidBytes(id));
    const asId = (v: unknown) => (Buffer.isBuffer(v) ? uuidFromBytes(v) : String(v));

    it('shows the fan-out from the parent and from any sub-job, and the parent each failed sub-job holds back', async () => {
      const parent = harness<{ id: string }>(h, [
        'enqueue',
        '--url',
        db.url,
        '--type',
        'fan-out',
        '--queue',
        'wf',
        '--args',
        JSON.stringify({ child_type: 'fail-permanent', child_queue: 'kids', items: [{ i: 0 }, { i: 1 }, { i: 2 }] }),
      ]).id;
      await runWorker(h, db.url, ['wf'], 0, 30, 1);
      const kids = (await db.query(`SELECT id FROM jobs WHERE parent_job_id = ${p(1)} ORDER BY fan_out_index`, [id16(parent)])).map((r) =>
        asId(r.id),
      );
      expect(kids).toHaveLength(3);
      await runWorker(h, db.url, ['kids'], 3, 30);

      const top = (await a.family!(parent, { limit: 100 }))!;
      expect(top.self).toMatchObject({ id: parent, status: 'waiting', state: 'waiting' });
      expect(top.children.map((c) => c.id)).toEqual(kids);
      expect(top.groups).toHaveLength(1);
      expect(top.groups[0]).toMatchObject({ kind: 'fan-out', total: 3, done: 3, failed: 3 });
      expect(top.groups[0]!.callback?.id).toBe(parent);

      const f = (await a.family!(kids[1]!, { limit: 100 }))!;
      expect(f.parent?.id).toBe(parent);
      expect(f.root?.id).toBe(parent);
      expect(f.self.status).toMatch(/failed|dead/);
      expect(f.members.map((m) => m.id)).toEqual([parent, ...kids]);
      expect(f.blocks.map((b) => [b.by, b.waiting.id])).toEqual(kids.map((k) => [k, parent]));
    });

    it('refuses an id that is not a UUID naming the field, and answers null for one no job has', async () => {
      const err = await a.family!('not-a-uuid', { limit: 10 }).catch((e: unknown) => e);
      expect(isConsoleError(err) && err.code).toBe('InvalidInput');
      expect(await a.family!('0190a8a4-0000-7000-8000-000000000000', { limit: 10 })).toBeNull();
    });
  });
}
