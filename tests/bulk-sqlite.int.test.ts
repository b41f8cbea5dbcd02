// Bulk jobs against a real SQLite broker whose dead letters were written by the real potatoq:
// "replay everything matching task=X" in batches through the service, and a cancel halfway.
import fs from 'node:fs';
import Database from 'better-sqlite3';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPySeeder, type PySeeder } from '@/tests/support/potatoq-seeder';
import { migratedDb } from '@/tests/support/sqlite-db';
import { latch } from '@/tests/bulk/fake-backend';
import type { BulkBackend } from '@/lib/bulk/snapshot';
import { ZAuditPage } from '@/lib/audit/types';
import { ZBulkJobView } from '@/lib/bulk/schema';
import { assertDto } from '@/tests/contract/dto-check';

const file = migratedDb();
process.env.POTATOQ_CONSOLE_BROKERS = JSON.stringify([{ id: 'bulk', name: 'Bulk SQLite', url: `sqlite:///${file}` }]);
// The console's state store in a file, as in production: the audit trail and the bulk jobs
// write it through connections of their own.
process.env.POTATOQ_CONSOLE_STATE = path.join(path.dirname(file), 'console-state.sqlite3');
const { serviceBackend } = await import('@/lib/bulk/backend');
const { BulkJob } = await import('@/lib/bulk/runner');
const { takeSnapshot } = await import('@/lib/bulk/snapshot');
const { resetAdapters } = await import('@/lib/brokers/registry');
const { controlBulk, createBulk } = await import('@/lib/bulk/operations');
const { getAuditStore } = await import('@/lib/audit/store');
const { findLocal } = await import('@/lib/bulk/registry');

let py: PySeeder;

async function seed(task: string, queue: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++)
    ids.push(await py.call<string>('dead_letter', { task, queue, args: [i], reason: `Traceback\nValueError: ${task} ${i}\n` }));
  return ids;
}

function column(sql: string, ...params: unknown[]): unknown[] {
  const db = new Database(file, { readonly: true, timeout: 10_000 });
  try {
    return db
      .prepare(sql)
      .pluck()
      .all(...params);
  } finally {
    db.close();
  }
}
const deadOf = (task: string) => new Set(column('SELECT id FROM potatoq_dead WHERE task = ?', task) as string[]);
const readyIn = (queue: string) => column('SELECT count(*) FROM potatoq_jobs WHERE queue = ? AND state = 1', queue)[0];

async function jobFor(task: string, backend: BulkBackend = serviceBackend('bulk', 'replay', { task })) {
  const snapshot = await takeSnapshot(backend);
  return new BulkJob({ brokerId: 'bulk', action: 'replay', filter: { task }, snapshot, backend });
}

beforeAll(async () => {
  py = startPySeeder(`sqlite:///${file}`);
}, 120_000);

afterAll(async () => {
  await resetAdapters();
  await py.close();
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
});

describe('bulk replay on SQLite', () => {
  it('replays all 1,200 dead letters matching task=X in batches; the 50 others stay', async () => {
    const wanted = await seed('bulk.x', 'bulk-a', 1200);
    const others = await seed('bulk.other', 'bulk-a', 50);
    const job = await jobFor('bulk.x');
    expect(job.total).toBe(1200);
    // Pinned: a letter of the same task that dies after the snapshot is not replayed.
    const [late] = await seed('bulk.x', 'bulk-a', 1);
    job.start();
    await job.finished;
    const v = job.view();
    // The answer of GET /bulk/{jobId}, exactly as its definition names it (docs/architecture.md).
    assertDto('bulk job', ZBulkJobView, v);
    expect(v).toMatchObject({
      state: 'done',
      progress: { total: 1200, processed: 1200, succeeded: 1200, skipped: 0, failed: 0, batches: 3 },
    });
    for (const id of [wanted[0]!, wanted[599]!, wanted[1199]!]) {
      expect(await py.call('dead', { id })).toBeNull();
      expect(await py.call('job', { id })).toMatchObject({ state: 'ready', queue: 'bulk-a' });
    }
    expect(await py.call('dead', { id: late })).not.toBeNull();
    expect(await py.call('dead', { id: others[0] })).not.toBeNull();
    expect(await py.call('dead', { id: others[49] })).not.toBeNull();
    expect(readyIn('bulk-a')).toBe(1200);
    expect(deadOf('bulk.other').size).toBe(50);
    expect(deadOf('bulk.x')).toEqual(new Set([late]));
  }, 180_000);

  it('cancelled halfway, leaves the letters it did not reach in the dead table', async () => {
    const wanted = await seed('bulk.y', 'bulk-b', 1200);
    const real = serviceBackend('bulk', 'replay', { task: 'bulk.y' });
    const hold = latch();
    let calls = 0;
    const held: BulkBackend = {
      listPage: (c, l) => real.listPage(c, l),
      act: async (ids) => {
        calls += 1;
        const r = await real.act(ids);
        if (calls === 1) await hold.wait; // batch 1 is in the broker; cancel arrives now
        return r;
      },
    };
    const job = await jobFor('bulk.y', held);
    job.start();
    await new Promise((r) => setTimeout(r, 50));
    job.cancel();
    hold.open();
    await job.finished;
    expect(job.view()).toMatchObject({ state: 'cancelled', progress: { total: 1200, processed: 500, succeeded: 500 } });
    // Exactly the snapshot's first batch left the dead table; the other 700 letters are still there.
    const order = job.snapshotIds();
    expect(deadOf('bulk.y')).toEqual(new Set(order.slice(500)));
    expect(new Set(order)).toEqual(new Set(wanted));
    expect(readyIn('bulk-b')).toBe(500);
  }, 180_000);

  it('reports letters replayed by someone else after the snapshot as skipped', async () => {
    const wanted = await seed('bulk.z', 'bulk-c', 20);
    const job = await jobFor('bulk.z');
    await py.call('requeue_dead', { id: wanted[3] });
    job.start();
    await job.finished;
    expect(job.view()).toMatchObject({
      state: 'done',
      progress: { succeeded: 19, skipped: 1 },
      skippedOutcomes: [{ id: wanted[3], outcome: 'missing' }],
    });
  }, 60_000);

  it('pauses, resumes and cancels a running job at once on the console that runs it, each audited', async () => {
    await seed('bulk.ctl', 'bulk-d', 60);
    const h = new Headers({ host: 'localhost:3000', origin: 'http://localhost:3000' });
    const v = await createBulk('bulk', { action: 'replay', filter: { task: 'bulk.ctl' }, rate: 2 }, h);
    assertDto('bulk job', ZBulkJobView, v);
    const ops = ['start', 'pause', 'resume', 'cancel'] as const;
    const answers: string[] = [];
    for (const op of ops) {
      answers.push((await controlBulk('bulk', { jobId: v.id, op, reason: 'int test' }, h)).state);
      if (op === 'start' || op === 'resume') await new Promise((r) => setTimeout(r, 100)); // the loop is in its paced wait
    }
    // The first answer says the new state; a resume or cancel woke the job's loop, whose write of
    // the state store used to hold its lock while the audit entry waited for it (5 s, then lost).
    expect(answers).toEqual(['running', 'paused', 'running', 'cancelled']);
    const controls = new Set(['bulk-pause', 'bulk-resume', 'bulk-cancel']);
    const page = await (await getAuditStore()).list({ broker: 'bulk', limit: 50 });
    assertDto('audit page', ZAuditPage, page);
    const entries = page.entries.filter((e) => controls.has(e.action));
    expect(entries.map((e) => [e.action, e.outcome]).reverse()).toEqual([
      ['bulk-pause', 'done'],
      ['bulk-resume', 'done'],
      ['bulk-cancel', 'done'],
    ]);
  }, 60_000);

  it('freezes a range like "1h" as instants when the job is made and acts only on letters that died in it', async () => {
    const letter = (i: number, diedAgo: number) =>
      py.call<string>('dead_letter', {
        task: 'bulk.r',
        queue: 'bulk-r',
        args: [i],
        reason: 'Traceback\nValueError: r\n',
        died_ago: diedAgo,
      });
    const old = await letter(0, 2 * 3600);
    const recent = [await letter(1, 600), await letter(2, 300), await letter(3, 60)];
    const h = new Headers({ host: 'localhost:3000', origin: 'http://localhost:3000' });
    const before = Date.now();
    const v = await createBulk('bulk', { action: 'replay', filter: { queue: 'bulk-r', since: '1h' } }, h);
    // The job keeps the instant "1h" meant when it was made, not the text: it cannot slide.
    const since = Date.parse(v.filter.since ?? '');
    expect(v.filter.since).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/);
    expect(since).toBeGreaterThanOrEqual(before - 3_600_000);
    expect(since).toBeLessThanOrEqual(Date.now() - 3_600_000);
    expect(v.progress.total).toBe(3);
    await controlBulk('bulk', { jobId: v.id, op: 'start', confirmCount: 3, reason: 'int test' }, h);
    await findLocal('bulk', v.id)?.finished;
    expect(findLocal('bulk', v.id)?.view()).toMatchObject({ state: 'done', progress: { succeeded: 3 } });
    for (const id of recent) expect(await py.call('dead', { id })).toBeNull();
    expect(await py.call('dead', { id: old })).not.toBeNull();
    // An empty range is refused under its field before anything is read.
    await expect(createBulk('bulk', { action: 'replay', filter: { queue: 'bulk-r', since: '1h', until: '2h' } }, h)).rejects.toThrow(
      /until must be later than since/,
    );
  }, 60_000);

  it('revokes only the ready tasks enqueued in a frozen range; one enqueued earlier stays', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push(await py.call<string>('enqueue', { task: 'bulk.t', queue: 'bulk-t', args: [i] }));
    const old = ids[0]!;
    // Enqueued two hours ago, as potatoq's own column says it.
    const db = new Database(file, { timeout: 10_000 });
    try {
      db.prepare('UPDATE potatoq_jobs SET created_at = created_at - 7200 WHERE id = ?').run(old);
    } finally {
      db.close();
    }
    const h = new Headers({ host: 'localhost:3000', origin: 'http://localhost:3000' });
    const v = await createBulk('bulk', { action: 'revoke', filter: { state: 'ready', queue: 'bulk-t', since: '1h' } }, h);
    expect(v.filter.since).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/);
    expect(v.progress.total).toBe(3);
    await controlBulk('bulk', { jobId: v.id, op: 'start', confirmCount: 3, reason: 'int test' }, h);
    await findLocal('bulk', v.id)?.finished;
    expect(findLocal('bulk', v.id)?.view()).toMatchObject({ state: 'done', progress: { succeeded: 3 } });
    expect(column('SELECT id FROM potatoq_jobs WHERE queue = ? AND state = 1', 'bulk-t')).toEqual([old]);
  }, 60_000);
});
