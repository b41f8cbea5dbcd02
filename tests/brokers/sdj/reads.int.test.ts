// The store's reads on the recorded schema, with rows written as the library writes them: the
// queue overview (counts per SDJ status, oldest pending age, paused queues), keyset pages per
// status and of dead letters, and the job detail.
import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { getJob } from '@/lib/brokers/sdj/detail';
import { listDeadLetters, listJobs, type SdjJobSummary, type SdjPage } from '@/lib/brokers/sdj/jobs';
import { readOverview } from '@/lib/brokers/sdj/overview';
import { listStaleLocks } from '@/lib/brokers/sdj/stuck';
import { addCheckpoint, claim, fanOut, goEnqueue, idOf, makeDeadLetter, q } from './rows';
import { availableDialects, DIALECTS, freshSdj, type Sdj } from './support';

const up = await availableDialects();

async function lockTable(dialect: string, url: string): Promise<() => Promise<void>> {
  if (dialect === 'mysql') {
    const m = await mysql.createConnection({ uri: url });
    await m.query('LOCK TABLES jobs WRITE');
    return async () => {
      await m.query('UNLOCK TABLES');
      await m.end();
    };
  }
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query('BEGIN');
  await c.query('LOCK TABLE jobs IN ACCESS EXCLUSIVE MODE');
  return async () => {
    await c.query('ROLLBACK');
    await c.end();
  };
}
const queueName = (p: string) => `${p}-${randomBytes(3).toString('hex')}`;

async function allPages(read: (cursor: string | null) => Promise<SdjPage<SdjJobSummary>>): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 50; i++) {
    const page: SdjPage<SdjJobSummary> = await read(cursor);
    ids.push(...page.items.map((j) => j.id));
    if (!page.next) return ids;
    cursor = page.next;
  }
  throw new Error('no end');
}

for (const dialect of DIALECTS) {
  describe.skipIf(!up[dialect])(`SDJ store reads on ${dialect}`, () => {
    let s: Sdj | undefined;
    afterEach(async () => {
      await s?.done();
      s = undefined;
    });
    const ts = (iso: string) => (dialect === 'postgres' ? `${iso}+00` : iso);

    it('counts every SDJ status per queue, the oldest pending age and paused queues', async () => {
      s = await freshSdj(dialect);
      const { db } = s;
      const a = queueName('a');
      const idle = queueName('idle');
      const resumed = queueName('resumed');
      const hourAgo = dialect === 'postgres' ? "NOW() - INTERVAL '1 hour'" : 'NOW(6) - INTERVAL 1 HOUR';
      const old = await goEnqueue(db, { queue: a });
      await q(db, `UPDATE jobs SET created_at = ${hourAgo} WHERE id = ?`, [idOf(db, old)]);
      await goEnqueue(db, { queue: a });
      await claim(db, await goEnqueue(db, { queue: a }));
      for (const status of ['waiting', 'paused', 'completed', 'cancelled', 'retrying']) await goEnqueue(db, { queue: a, status });
      await makeDeadLetter(db, { queue: a });
      const t = dialect === 'postgres' ? 'true' : '1';
      await q(
        db,
        `INSERT INTO queue_states (queue, paused, paused_at, paused_by, updated_at) VALUES (?, ${t}, NOW(), 'ops', NOW()), (?, false, NULL, NULL, NOW())`,
        [idle, resumed],
      );

      const o = await readOverview(s.store.db);
      expect(o.countsUnknown).toBeNull();
      const qa = o.queues.find((x) => x.queue === a)!;
      expect(qa.counts).toEqual({ pending: 2, running: 1, waiting: 1, paused: 1, completed: 1, failed: 1, cancelled: 1 });
      expect(qa.other).toEqual({ retrying: 1 });
      expect(qa.paused).toBe(false);
      expect(qa.oldestPendingAgeSeconds).toBeGreaterThanOrEqual(3600);
      expect(qa.oldestPendingAgeSeconds).toBeLessThan(3600 + 600);
      expect(qa.oldestPendingAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d+Z$/);
      expect(o.queues.find((x) => x.queue === idle)).toMatchObject({
        paused: true,
        pausedBy: 'ops',
        counts: { pending: 0 },
        oldestPendingAt: null,
      });
      expect(o.queues.some((x) => x.queue === resumed)).toBe(false);
    });

    it('reports counts as unknown, not zero, when counting outlives its deadline', async () => {
      s = await freshSdj(dialect);
      const qn = queueName('slow');
      await goEnqueue(s.db, { queue: qn });
      // Another session holds the table exclusively: the count waits until its deadline.
      const release = await lockTable(dialect, s.db.url);
      try {
        const o = await readOverview(s.store.db, { timeoutMs: 150 });
        expect(o.countsUnknown).toMatch(/longer than 150 ms/);
        expect(o.queues.every((x) => x.counts === null)).toBe(true);
      } finally {
        await release();
      }
      expect((await readOverview(s.store.db)).queues.find((x) => x.queue === qn)?.counts?.pending).toBe(1);
    });

    it("lists running jobs whose lock went stale by the library's reaper predicate, oldest first", async () => {
      s = await freshSdj(dialect);
      const { db } = s;
      const qn = queueName('st');
      const ago = (m: number) => (dialect === 'postgres' ? `NOW() - INTERVAL '${m} minutes'` : `NOW(6) - INTERVAL ${m} MINUTE`);
      const [older, old, fresh, beat] = [
        await goEnqueue(db, { queue: qn }),
        await goEnqueue(db, { queue: qn }),
        await goEnqueue(db, { queue: qn }),
        await goEnqueue(db, { queue: qn }),
      ];
      for (const id of [older, old, fresh, beat]) await claim(db, id);
      await q(db, `UPDATE jobs SET started_at = ${ago(180)} WHERE id = ?`, [idOf(db, older)]);
      await q(db, `UPDATE jobs SET started_at = ${ago(120)} WHERE id = ?`, [idOf(db, old)]);
      await q(db, `UPDATE jobs SET started_at = ${ago(120)}, last_heartbeat_at = ${ago(1)} WHERE id = ?`, [idOf(db, beat)]);
      const stale = await listStaleLocks(s.store.db);
      expect(stale.map((j) => j.id)).toEqual([older, old]);
      expect(stale[0]!.lastSignOfLife).toMatch(/Z$/);
      expect((await listStaleLocks(s.store.db, { minutes: 150 })).map((j) => j.id)).toEqual([older]);
    });

    it('pages one status newest first, each job exactly once, ties on created_at broken by id ascending', async () => {
      s = await freshSdj(dialect);
      const { db } = s;
      const qn = queueName('p');
      const other = queueName('o');
      const times = [
        '2026-01-01 00:00:01.000',
        '2026-01-01 00:00:02.000',
        '2026-01-01 00:00:02.000',
        '2026-01-01 00:00:02.000',
        '2026-01-01 00:00:03.000',
        '2026-01-01 00:00:04.000',
        '2026-01-01 00:00:04.000',
      ];
      const made: { id: string; at: string }[] = [];
      for (const at of times) made.push({ id: await goEnqueue(db, { queue: qn, status: 'completed', createdAt: ts(at) }), at });
      await goEnqueue(db, { queue: other, status: 'completed', createdAt: ts(times[3]!) });
      const orphan = await goEnqueue(db, { queue: qn, status: 'completed' });
      await q(db, 'UPDATE jobs SET created_at = NULL WHERE id = ?', [idOf(db, orphan)]);
      const want = [...made].sort((x, y) => (x.at === y.at ? (x.id < y.id ? -1 : 1) : x.at < y.at ? 1 : -1)).map((m) => m.id);

      const got = await allPages((cursor) => listJobs(s!.store.db, { status: 'completed', queue: qn, limit: 2, cursor }));
      expect(got).toEqual(want);
      const unfiltered = await allPages((cursor) => listJobs(s!.store.db, { status: 'completed', limit: 3, cursor }));
      expect(unfiltered).toHaveLength(8);
      expect(unfiltered).not.toContain(orphan);
      await expect(listJobs(s.store.db, { status: 'completed', cursor: 'bm9wZQ' })).rejects.toThrow(/^cursor: /);
      await expect(listJobs(s.store.db, { status: 'nope' as 'failed' })).rejects.toThrow(/^status: /);
    });

    it('lists dead letters by dead_lettered_at with the reason split into label and error', async () => {
      s = await freshSdj(dialect);
      const { db } = s;
      const qn = queueName('dl');
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push(await makeDeadLetter(db, { queue: qn, maxRetries: i % 2 ? 1 : 5, error: `boom ${i}` }));
      await goEnqueue(db, { queue: qn, status: 'cancelled' });
      const page1 = await listDeadLetters(s.store.db, { queue: qn, limit: 3 });
      const rest = await allPages((cursor) => listDeadLetters(s!.store.db, { queue: qn, limit: 3, cursor }));
      expect(new Set(rest)).toEqual(new Set(ids));
      expect(rest).toHaveLength(5);
      const byId = new Map(page1.items.map((j) => [j.id, j]));
      const one = byId.get(ids[4]!) ?? [...byId.values()][0]!;
      expect(one.status).toBe('failed');
      expect(one.deadLetteredAt).not.toBeNull();
      const all = (await listDeadLetters(s.store.db, { queue: qn, limit: 10 })).items;
      expect(all.find((j) => j.id === ids[1])).toMatchObject({
        reasonLabel: 'max retries exhausted',
        deadLetterReason: 'max retries exhausted: boom 1',
        lastError: 'boom 1',
      });
      expect(all.find((j) => j.id === ids[0])).toMatchObject({
        reasonLabel: 'non-retryable failure',
        deadLetterReason: 'non-retryable failure: boom 0',
      });
    });

    it('shows a job in full: args decoded, lock and heartbeat, checkpoints, fan-out parent and children, result, unique key', async () => {
      s = await freshSdj(dialect);
      const { db } = s;
      const qn = queueName('d');
      const parent = await goEnqueue(db, { queue: qn, type: 'fan-out', args: { items: [1, 2] }, uniqueKey: 'order-7' });
      await claim(db, parent, 'host-a:123');
      await q(db, `UPDATE jobs SET last_heartbeat_at = NOW() WHERE id = ?`, [idOf(db, parent)]);
      await addCheckpoint(db, parent, 1, 'call', { ok: true });
      const { fanOutId, children } = await fanOut(db, parent, 2, qn);
      await q(db, 'UPDATE jobs SET result = ? WHERE id = ?', [Buffer.from('{"sum":3}'), idOf(db, children[0]!)]);
      await q(db, 'UPDATE jobs SET args = ? WHERE id = ?', [Buffer.from('sdjenc:xyz'), idOf(db, children[1]!)]);

      const d = (await getJob(s.store.db, parent))!;
      expect(d).toMatchObject({
        id: parent,
        status: 'waiting',
        type: 'fan-out',
        attempt: 1,
        maxRetries: 2,
        lockedBy: 'host-a:123',
        uniqueKey: 'order-7',
        lastError: null,
        tenant: null,
      });
      expect(d.args).toEqual({ kind: 'json', value: { items: [1, 2] }, size: 15 });
      expect(d.lockedUntil).not.toBeNull();
      expect(d.lastHeartbeatAt).not.toBeNull();
      expect(d.checkpoints.map((c) => [c.callIndex, c.callType])).toEqual([
        [0, 'fanout'],
        [1, 'call'],
      ]);
      expect(d.checkpoints[0]!.result).toMatchObject({ kind: 'json', value: { fan_out_id: fanOutId } });
      expect(d.fanOuts).toEqual([expect.objectContaining({ id: fanOutId, totalCount: 2, status: 'pending', strategy: 'collect_all' })]);
      expect(d.childIds).toEqual(children);
      const c0 = (await getJob(s.store.db, children[0]!))!;
      expect(c0).toMatchObject({
        parentJobId: parent,
        rootJobId: parent,
        fanOutId,
        fanOutIndex: 0,
        result: { kind: 'json', value: { sum: 3 } },
        uniqueKey: null,
      });
      expect((await getJob(s.store.db, children[1]!))!.args).toMatchObject({ kind: 'encrypted' });
      expect(await getJob(s.store.db, '00000000-0000-4000-8000-000000000000')).toBeNull();
      await expect(getJob(s.store.db, 'x; DROP TABLE jobs')).rejects.toThrow(/^id: /);
    });
  });
}
