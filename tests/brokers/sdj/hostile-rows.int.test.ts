// Rows no library writer makes but a database may hold (raw SQL, another tool, a newer library):
// every read keeps answering, and what it cannot show is said, never a crash.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { ZDeadListQuery, ZTaskListQuery } from '@/lib/brokers/schema';
import { createSdjAdapter } from '@/lib/brokers/sdj/adapter';
import { adapterContext } from '@/lib/brokers/systems-context';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { createTestDb, type TestDb } from '@/tests/sdj/databases';
import { goEnqueue, idOf, makeDeadLetter, q } from './rows';
import { createSdjSchema } from './schema-fixture';
import { availableDialects, DIALECTS, guarded } from './support';

const up = await availableDialects();

const list = (a: BrokerAdapter, x: Record<string, unknown> & { state: string }) =>
  a.listTasks({ ...ZTaskListQuery.parse(x), state: x.state });

for (const dialect of DIALECTS) {
  describe.skipIf(!up[dialect])(`SDJ adapter on odd rows, ${dialect}`, () => {
    let db: TestDb | undefined;
    let a: BrokerAdapter | undefined;
    afterEach(async () => {
      await a?.close();
      await db?.drop();
      a = db = undefined;
    });

    it('lists, shows and counts rows with odd args, no created_at, an unwritten status, no reason', async () => {
      db = guarded(await createTestDb(dialect));
      await createSdjSchema(db, 'verified');
      a = createSdjAdapter({ id: 'sdj', name: 'SDJ', url: db.url, readOnly: false, options: {} }, adapterContext());
      const qn = `odd-${randomBytes(3).toString('hex')}`;
      const set = (id: string, sql: string, params: unknown[] = []) =>
        q(db!, `UPDATE jobs SET ${sql} WHERE id = ?`, [...params, idOf(db!, id)]);
      const nullArgs = await goEnqueue(db, { queue: qn });
      await set(nullArgs, 'args = NULL');
      const binary = await goEnqueue(db, { queue: qn });
      await set(binary, 'args = ?', [Buffer.from([0xff, 0xfe, 0x00, 0x3c])]);
      const noTime = await goEnqueue(db, { queue: qn });
      await set(noTime, 'created_at = NULL');
      const retrying = await goEnqueue(db, { queue: qn });
      await set(retrying, "status = 'retrying'");
      const letter = await makeDeadLetter(db, { queue: qn });
      await set(letter, 'dead_letter_reason = NULL, last_error = NULL');
      const unmarked = await goEnqueue(db, { queue: qn });
      await set(unmarked, "status = 'failed', completed_at = created_at");

      const o = await a.overview();
      const stats = o.queues.find((x) => x.name === qn)!;
      expect([stats.counts.pending, stats.dead]).toEqual([3, 1]);
      expect(o.warnings).toEqual([
        expect.stringContaining('1 failed job(s) carry no dead_lettered_at'),
        expect.stringContaining('status "retrying"'),
      ]);
      const pending = await list(a, { state: 'pending', queue: qn, limit: 1 });
      const next = await list(a, { state: 'pending', queue: qn, limit: 1, cursor: pending.nextCursor });
      expect([...pending.items, ...next.items].map((t) => t.id).sort()).toEqual([nullArgs, binary].sort());
      expect(next.nextCursor).toBeNull();
      const shown = await a.getTask(binary);
      expect(shown?.payload.flags.map((f) => f.code)).toEqual(['not-json']);
      expect(shown?.raw).toBe(Buffer.from([0xff, 0xfe, 0x00, 0x3c]).toString('base64'));
      expect((await a.getTask(nullArgs))?.payload.args).toBeNull();
      expect((await a.getTask(noTime))?.createdAt).toBeNull();
      const dead = await a.listDead(ZDeadListQuery.parse({ queue: qn }));
      expect(dead.items.map((d) => [d.id, d.summary])).toEqual([[letter, '']]);
      expect((await a.deadGroups({ queue: qn })).scope.grouped).toBe(1);
      expect((await a.getResult(unmarked))?.status).toBe('FAILED');
      await expect(list(a, { state: 'pending', cursor: 'not-a-cursor' })).rejects.toMatchObject({
        code: 'InvalidInput',
      });
      await expect(list(a, { state: 'running', cursor: pending.nextCursor })).resolves.toBeDefined();
    });
  });
}
