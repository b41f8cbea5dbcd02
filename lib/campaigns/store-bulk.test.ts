import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TaskFate } from '@/lib/brokers/dto-fate';
import { FakeBackend, OnePassBackend, idsFrom } from '@/tests/bulk/fake-backend';
import { BulkJob } from '@/lib/bulk/runner';
import { takeSnapshot } from '@/lib/bulk/snapshot';
import type { ActedItem } from './store-bulk';
import { MIN_POLL_MS, pollCampaign } from './follow';
import { openSqliteCampaignStore } from './open';

const dirs: string[] = [];
const tempFile = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'campaigns-bulk-'));
  dirs.push(d);
  return path.join(d, 'state.sqlite3');
};
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

const base = { broker: 'b1', action: 'bulk-replay', who: 'olga', reason: 'fixed', auditId: null, parent: null, filter: { jobId: 'j1' } };
const job = { id: '0b6d1c1e-0000-4000-8000-000000000001', state: 'running' as const, why: null };
const items = (from: number, to: number): ActedItem[] =>
  idsFrom('t', to)
    .slice(from)
    .map((id, i) => ({ n: from + i, id }));
const succeeded = (id: string): TaskFate => ({
  id,
  fate: 'succeeded',
  state: null,
  fingerprint: null,
  detail: 'ok',
  followed: null,
  at: null,
});

describe("a bulk job's campaign", () => {
  it('exists from the start, grows batch by batch, and keeps each task once when a batch is appended again', async () => {
    const store = await openSqliteCampaignStore(tempFile());
    const id = await store.openBulk(base, job, 600, null);
    expect(id).toBe(`cmp-${job.id}`);
    // Opened again (a console that took the job over): nothing changes.
    expect(await store.openBulk({ ...base, who: 'someone else' }, job, 600, null)).toBe(id);
    let c = (await store.get(id))!;
    expect(c).toMatchObject({ who: 'olga', scope: { count: 600, ids: [], job }, rollup: { total: 0 } });

    await store.appendBulk(id, items(0, 250), 'fp-a');
    expect((await store.get(id))!.rollup).toMatchObject({ total: 250, pending: 250 });
    // The console stopped after appending and before saving its progress: the batch again, then more.
    await store.appendBulk(id, items(0, 250), 'fp-a');
    await store.appendBulk(id, items(200, 450), 'fp-a');
    c = (await store.get(id))!;
    expect(c.rollup.total).toBe(450);
    expect(c.scope.ids).toEqual(idsFrom('t', 20));
    const all = await store.items(id, { fate: 'all', limit: 500 });
    expect(new Set(all.items.map((i) => i.id)).size).toBe(450);
    expect(all.items.every((i) => i.before === 'fp-a')).toBe(true);
  });

  it('is not settled while the job still runs; settles once it stopped, and reopens when it runs again', async () => {
    const store = await openSqliteCampaignStore(tempFile());
    const id = await store.openBulk(base, job, 10, null);
    await store.appendBulk(id, items(0, 3), null);
    let now = Date.now();
    const poll = () => pollCampaign(store, id, { fates: async (_b, ids) => ids.map(succeeded), now: () => (now += MIN_POLL_MS) });
    expect(await poll()).toMatchObject({ polled: true, looked: 3, settled: false });
    expect((await store.get(id))!.follow.state).toBe('following');
    await store.setBulkJob(id, { ...job, state: 'failed', why: 'BrokerUnavailable: down' });
    expect(await poll()).toMatchObject({ polled: true, settled: true });
    expect((await store.get(id))!).toMatchObject({
      follow: { state: 'settled' },
      scope: { job: { state: 'failed', why: 'BrokerUnavailable: down' } },
    });
    // Resumed: more tasks are coming.
    await store.setBulkJob(id, job);
    await store.appendBulk(id, items(3, 5), null);
    expect((await store.get(id))!).toMatchObject({ follow: { state: 'following' }, rollup: { total: 5, succeeded: 3, pending: 2 } });
  });
});

describe('a bulk job tells its campaign each batch', () => {
  it('hands on the ids the broker took with their place in the snapshot, refusals left out', async () => {
    const b = new FakeBackend(idsFrom('d', 12));
    const job = new BulkJob({ brokerId: 'fake', action: 'replay', filter: {}, snapshot: await takeSnapshot(b), backend: b, batchSize: 5 });
    b.rows.splice(b.rows.indexOf('d-000006'), 1);
    const heard: ActedItem[][] = [];
    job.onActed = async (it) => void heard.push(it);
    job.start();
    await job.finished;
    expect(heard.map((h) => h.length)).toEqual([5, 4, 2]);
    expect(heard[1]!.map((a) => a.n)).toEqual([5, 7, 8, 9]);
    expect(heard.flat().map((a) => a.id)).toEqual(idsFrom('d', 12).filter((id) => id !== 'd-000006'));
  });

  it('on a one-pass backend too, every id it took once', async () => {
    const b = new OnePassBackend(idsFrom('d', 30));
    const job = new BulkJob({ brokerId: 'fake', action: 'replay', filter: {}, snapshot: await takeSnapshot(b), backend: b });
    b.rows.splice(b.rows.indexOf('d-000003'), 1);
    const heard: ActedItem[] = [];
    job.onActed = async (it) => void heard.push(...it);
    job.start();
    await job.finished;
    expect(heard.map((a) => a.id)).toEqual(idsFrom('d', 30).filter((id) => id !== 'd-000003'));
    expect(heard.every((a) => a.id === `d-${String(a.n).padStart(6, '0')}`)).toBe(true);
  });
});
