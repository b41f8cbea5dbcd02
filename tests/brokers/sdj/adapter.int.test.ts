// What the SDJ adapter does beyond the shared battery, on PostgreSQL 15 and MySQL 9 with rows
// written as the library writes them: the schema gate as capabilities, paused queues, pending
// jobs in the order a worker claims them at any depth, a fan-out's detail, derived workers, the
// stuck-work checks, finished jobs as results.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { ZTaskListQuery } from '@/lib/brokers/schema';
import { createSdjAdapter } from '@/lib/brokers/sdj/adapter';
import { deadGroups } from '@/lib/brokers/sdj/dead';
import { openSdjStore } from '@/lib/brokers/sdj/store';
import { adapterContext } from '@/lib/brokers/systems-context';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { createTestDb, type Dialect, type TestDb } from '@/tests/sdj/databases';
import { claim, fanOut, goEnqueue, idOf, makeDeadLetter, q } from './rows';
import { createSdjSchema, type LedgerState } from './schema-fixture';
import { availableDialects, DIALECTS, guarded } from './support';

const up = await availableDialects();
const queueName = (p: string) => `${p}-${randomBytes(3).toString('hex')}`;
const tasks = (a: BrokerAdapter, x: Record<string, unknown> & { state: string }) =>
  a.listTasks({ ...ZTaskListQuery.parse(x), state: x.state });

for (const dialect of DIALECTS) {
  describe.skipIf(!up[dialect])(`SDJ adapter on ${dialect}`, () => {
    let db: TestDb | undefined;
    let a: BrokerAdapter | undefined;
    afterEach(async () => {
      await a?.close();
      await db?.drop();
      a = db = undefined;
    });
    async function open(ledger: LedgerState | 'none' = 'verified'): Promise<{ db: TestDb; a: BrokerAdapter }> {
      db = guarded(await createTestDb(dialect as Dialect));
      if (ledger !== 'none') await createSdjSchema(db, ledger);
      a = createSdjAdapter({ id: 'sdj', name: 'SDJ', url: db.url, readOnly: false, options: { lockWaitMs: 500 } }, adapterContext());
      return { db, a };
    }

    it('keeps reads on and turns every write off, naming both versions, on a schema it was not verified against', async () => {
      const { db, a } = await open('newer');
      const letter = await makeDeadLetter(db, { queue: queueName('gate') });
      const caps = await a.capabilities();
      for (const w of ['replay', 'discard', 'revoke', 'purge', 'pause'] as const) {
        expect(caps[w].on, w).toBe(false);
        expect(caps[w].why).toMatch(/version 36 .*verified against version 35 \(Simple Durable Jobs v4\.5\.1\)/);
      }
      expect(caps['list:pending']?.on).toBe(true);
      expect((await a.getDead(letter))?.id).toBe(letter);
      await expect(a.replayDead([letter])).rejects.toMatchObject({ code: 'ReadOnly' });
      const o = await a.overview();
      expect([o.readOnly, o.warnings?.[0]]).toEqual([true, expect.stringMatching(/^Writes are off: not verified/)]);
    });

    it('says so when the database has no Simple Durable Jobs tables', async () => {
      const { a } = await open('none');
      await expect(a.overview()).rejects.toMatchObject({
        code: 'NotMigrated',
        message: expect.stringMatching(/no Simple Durable Jobs tables/),
      });
    });

    it('shows a paused queue as paused, pauses and resumes through queue_states, and names the pause as what holds its jobs', async () => {
      const { db, a } = await open();
      const qn = queueName('pause');
      await goEnqueue(db, { queue: qn });
      await a.setQueuePaused!(qn, true);
      const paused = await q(db, 'SELECT paused FROM queue_states WHERE queue = ?', [qn]);
      expect(Boolean(Number(paused[0]?.paused) || paused[0]?.paused === true)).toBe(true);
      expect((await a.overview()).queues.find((x) => x.name === qn)).toMatchObject({ paused: true, counts: { pending: 1 } });
      const flag = (await a.diagnose!({ overdueSeconds: 120, revoke: { on: true } })).flags.find((f) => f.queue === qn);
      expect(flag).toMatchObject({ check: 'no-consumer', count: 1, cause: expect.stringContaining('paused') });
      await a.setQueuePaused!(qn, false);
      expect((await a.overview()).queues.find((x) => x.name === qn)?.paused).toBe(false);
    });

    it('lists pending jobs in the order a worker claims them, page after page, delayed ones by their run time', async () => {
      const { db, a } = await open();
      const qn = queueName('claim');
      const ids: string[] = [];
      for (let i = 0; i < 17; i++) ids.push(await goEnqueue(db, { queue: qn, priority: i % 3, args: { i } }));
      const later = await goEnqueue(db, { queue: qn, priority: 2, delaySeconds: 600 });
      const walked: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await tasks(a, { state: 'pending', queue: qn, limit: 4, cursor });
        walked.push(...page.items.map((t) => t.id));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      const [byDb] = [
        await q(db, 'SELECT id FROM jobs WHERE queue = ? AND status = ? ORDER BY priority DESC, COALESCE(run_at, created_at), id', [
          qn,
          'pending',
        ]),
      ];
      const expected = byDb.map((r) =>
        Buffer.isBuffer(r.id) ? r.id.toString('hex').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5') : String(r.id),
      );
      expect(walked).toEqual(expected);
      // The delayed job of the top priority comes after that priority's due ones.
      expect(walked.indexOf(later)).toBe(5);
      expect(new Set(walked).size).toBe(18);
    });

    it('shows a fan-out parent with its sub-jobs and checkpoints, and cancels it with its live sub-jobs', async () => {
      const { db, a } = await open();
      const qn = queueName('fan');
      const parent = await goEnqueue(db, { queue: qn, type: 'batch' });
      await claim(db, parent);
      const { children } = await fanOut(db, parent, 2, qn);
      const t = await a.getTask(parent);
      expect(t?.state).toBe('waiting');
      const names = t!.payload.fields.map((f) => f.name);
      expect(names).toEqual(expect.arrayContaining(['fan_outs', 'sub_jobs', 'checkpoints']));
      expect(t!.payload.fields.find((f) => f.name === 'sub_jobs')?.value).toEqual({
        t: 'list',
        items: children.map((v) => ({ t: 'uuid', v })),
      });
      // Parent and sub-jobs are linked by the task family (lib/brokers/family), not the detail.
      expect((await a.family!(parent, { limit: 50 }))!.children.map((c) => c.id)).toEqual(children);
      const child = await a.getTask(children[0]!);
      expect((await a.family!(children[0]!, { limit: 50 }))!.parent?.id).toBe(parent);
      expect(child!.payload.fields.find((f) => f.name === 'parent_job_id')?.value).toEqual({ t: 'uuid', v: parent });
      const r = await a.revoke([parent]);
      expect(r.succeeded[0]?.message).toMatch(/2 live sub-job/);
      expect((await tasks(a, { state: 'cancelled', queue: qn })).items.map((x) => x.id).sort()).toEqual([parent, ...children].sort());
    });

    it('refuses to discard a dead workflow parent without its subtree, and a job that is no dead letter', async () => {
      const { db, a } = await open();
      const qn = queueName('guard');
      const parent = await goEnqueue(db, { queue: qn });
      await claim(db, parent);
      await fanOut(db, parent, 1, qn);
      // Its handler then failed for good: a dead letter with its fan-out and sub-job kept.
      await q(db, "UPDATE jobs SET status = 'failed', completed_at = created_at, dead_lettered_at = created_at WHERE id = ?", [
        idOf(db, parent),
      ]);
      const pending = await goEnqueue(db, { queue: qn });
      const r = await a.discardDead([parent, pending]);
      expect(r.failed.map((o) => o.outcome)).toEqual(['invalid', 'missing']);
      expect(await q(db, 'SELECT id FROM jobs WHERE queue = ?', [qn])).toHaveLength(3);
    });

    it('derives workers from the lock holders of running jobs, and flags a job whose lock went stale', async () => {
      const { db, a } = await open();
      const qn = queueName('stale');
      const [fresh, old] = [await goEnqueue(db, { queue: qn }), await goEnqueue(db, { queue: qn })];
      await claim(db, fresh, 'host-a:1');
      await claim(db, old, 'host-b:2');
      const past = db.dialect === 'postgres' ? "NOW() - INTERVAL '2 hours'" : 'NOW(6) - INTERVAL 2 HOUR';
      await q(db, `UPDATE jobs SET started_at = ${past}, locked_until = ${past} WHERE id = ?`, [idOf(db, old)]);
      const ws = await a.listWorkers();
      expect(ws.map((w) => [w.id, w.status, w.running])).toEqual([
        ['host-a:1', 'alive', [fresh]],
        ['host-b:2', 'dead', [old]],
      ]);
      const d = await a.diagnose!({ overdueSeconds: 120, revoke: { on: true } });
      expect(d.flags.find((f) => f.check === 'worker-lost')).toMatchObject({
        queue: qn,
        ids: [old],
        count: 1,
        link: { page: 'task', id: old },
      });
      expect(d.flags.find((f) => f.check === 'worker-lost')!.cannot).toMatch(/never changes running/);
      expect((await q(db, 'SELECT status FROM jobs WHERE id = ?', [idOf(db, old)]))[0]?.status).toBe('running');
    });

    it('flags a delayed job still pending past its run_at, and not before the threshold', async () => {
      const { db, a } = await open();
      const qn = queueName('late');
      const id = await goEnqueue(db, { queue: qn, delaySeconds: 600 });
      await q(
        db,
        `UPDATE jobs SET run_at = ${db.dialect === 'postgres' ? "NOW() - INTERVAL '10 minutes'" : 'NOW(6) - INTERVAL 10 MINUTE'} WHERE id = ?`,
        [idOf(db, id)],
      );
      const d = await a.diagnose!({ overdueSeconds: 120, revoke: { on: true } });
      expect(d.flags.find((f) => f.check === 'overdue' && f.queue === qn)).toMatchObject({ ids: [id], count: 1 });
      const later = await a.diagnose!({ overdueSeconds: 3600, revoke: { on: true } });
      expect(later.flags.filter((f) => f.check === 'overdue' && f.queue === qn)).toEqual([]);
    });

    it('lists finished jobs of every status newest first as results, page after page, and reads one', async () => {
      const { db, a } = await open();
      const qn = queueName('res');
      const ids: string[] = [];
      for (let i = 0; i < 7; i++) {
        const id = await goEnqueue(db, { queue: qn, createdAt: `2026-01-0${1 + (i % 3)} 00:00:0${i}.000` });
        const status = ['completed', 'failed', 'cancelled'][i % 3]!;
        await q(db, `UPDATE jobs SET status = ?, completed_at = created_at, result = ? WHERE id = ?`, [
          status,
          status === 'completed' ? Buffer.from('{"ok":1}') : null,
          idOf(db, id),
        ]);
        ids.push(id);
      }
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await a.listResults({ status: undefined, limit: 3, cursor });
        seen.push(...page.items.map((r) => r.id));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      const order = [5, 2, 4, 1, 6, 3, 0].map((i) => ids[i]);
      expect(seen).toEqual(order);
      expect((await a.listResults({ status: 'CANCELLED', limit: 50 })).items.map((r) => r.id)).toEqual([ids[5], ids[2]]);
      expect(await a.getResult(ids[0]!)).toMatchObject({ status: 'COMPLETED', record: { t: 'dict' } });
      expect(await a.taskNames()).toEqual(['record']);
    });

    it('groups the newest letters of a window and says how many were left out', async () => {
      const { db } = await open();
      const qn = queueName('window');
      for (let i = 0; i < 3; i++) await makeDeadLetter(db, { queue: qn, error: `harness: order ${i} failed` });
      const store = await openSdjStore(db.url);
      try {
        const got = await deadGroups(store.db, { queue: qn }, 2);
        expect(got.groups.map((g) => [g.pattern, g.count])).toEqual([['harness: order <n> failed', 2]]);
        expect(got.scope).toEqual({
          grouped: 2,
          complete: false,
          note: expect.stringMatching(/^Grouped the newest 2 of 3 dead letters .*the 1 older one is/),
        });
        expect((await deadGroups(store.db, { queue: qn })).scope).toEqual({ grouped: 3, complete: true });
      } finally {
        await store.close();
      }
    });

    it("snapshots every matching letter's id for a bulk job, past the list's window, newest first and capped", async () => {
      const { db, a } = await open();
      const qn = queueName('bulk');
      const timeout: string[] = [];
      for (let i = 0; i < 3; i++) timeout.push(await makeDeadLetter(db, { queue: qn, error: `harness: timeout after ${i}s` }));
      await makeDeadLetter(db, { queue: qn, error: 'harness: bad input' });
      const group = (await a.deadGroups({ queue: qn })).groups.find((g) => g.count === 3)!.fingerprint;
      expect(await a.deadIds!({ queue: qn, group }, 10)).toEqual({ ids: [...timeout].reverse(), capped: false });
      expect(await a.deadIds!({ queue: qn, group }, 2)).toEqual({ ids: [timeout[2], timeout[1]], capped: true });
      expect((await a.deadIds!({ queue: qn }, 10)).ids).toHaveLength(4);
    });
  });
}

describe('SDJ adapter on a database that does not answer', () => {
  it('reports it unavailable without the password, and tries again on the next call', async () => {
    const a = createSdjAdapter(
      { id: 'down', name: 'Down', url: 'postgresql://console:s3cret-pw@127.0.0.1:1/app', readOnly: false, options: {} },
      adapterContext(),
    );
    for (let i = 0; i < 2; i++) {
      const err = await a.overview().catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'BrokerUnavailable' });
      expect((err as Error).message).not.toContain('s3cret-pw');
    }
    await a.close();
  });
});
