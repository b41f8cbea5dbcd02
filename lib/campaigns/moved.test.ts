import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TaskFate } from '@/lib/brokers/dto-fate';
import type { ActionOutcome, ActionResult } from '@/lib/brokers/schema';
import { FakeBackend, idsFrom } from '@/tests/bulk/fake-backend';
import { BulkJob } from '@/lib/bulk/runner';
import { joining } from '@/lib/bulk/follow';
import { takeSnapshot } from '@/lib/bulk/snapshot';
import { rollupLine } from './rollup';
import type { ActedItem } from './store-bulk';
import { MIN_POLL_MS, pollCampaign } from './follow';
import { openSqliteCampaignStore, setCampaignStoreForTests } from './open';

// Moves of waiting tasks as campaigns: followed on the target under the ids it gave them, each
// with its id on the source; nothing died before, so a dead one "failed"; a move finished by a
// second attempt (the held call sent again) joins once; refusals never.

vi.mock('@/lib/brokers/service-fate', () => ({ fateCapability: async () => ({ on: true }), taskFates: vi.fn() }));
const { movedItems, recordItems } = await import('./record');

const dirs: string[] = [];
const tempStore = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'campaigns-moved-'));
  dirs.push(d);
  return openSqliteCampaignStore(path.join(d, 'state.sqlite3'));
};
afterEach(() => {
  setCampaignStoreForTests(null);
  dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true }));
});

const base = { broker: 'qf', action: 'move-waiting', who: 'olga', reason: 'drain', auditId: null, parent: null, filter: null };
const fate = (id: string, f: Partial<TaskFate>): TaskFate => ({
  id,
  fate: 'succeeded',
  state: null,
  fingerprint: null,
  detail: '',
  followed: null,
  at: null,
  ...f,
});

describe("a waiting move's campaign", () => {
  it('follows the target ids, keeps the source ids, leaves refusals out and says "failed"', async () => {
    const store = await tempStore();
    setCampaignStoreForTests(store);
    const answered: ActionOutcome[] = [
      { id: 'c-1', outcome: 'ok', message: 'created', taskId: 'job-1' },
      { id: 'c-2', outcome: 'already', message: 'already there', taskId: 'job-2' },
      { id: 'c-3', outcome: 'conflict', message: 'a worker took it' },
      { id: 'c-1', outcome: 'ok', message: 'created', taskId: 'job-1' },
    ];
    const id = (await recordItems({ ...base, from: 'celery', firstRun: true }, movedItems(answered)))!;
    const c = (await store.get(id))!;
    expect(c.scope).toMatchObject({ ids: ['job-1', 'job-2'], count: 2, from: 'celery', firstRun: true });
    const items = (await store.items(id, { fate: 'all', limit: 10 })).items;
    expect(items.map((i) => [i.id, i.from, i.before])).toEqual([
      ['job-1', 'c-1', null],
      ['job-2', 'c-2', null],
    ]);
    let now = Date.now();
    const fates = async (_b: string, ids: string[]) =>
      ids.map((t) => (t === 'job-1' ? fate(t, {}) : fate(t, { fate: 'dead', fingerprint: 'fp-x', detail: 'boom' })));
    expect(await pollCampaign(store, id, { fates, now: () => (now += MIN_POLL_MS) })).toMatchObject({ looked: 2, settled: true });
    const after = (await store.get(id))!;
    expect(rollupLine(after.rollup, after.scope.firstRun)).toBe('1 succeeded · 1 failed');
    expect((await store.items(id, { fate: 'dead', limit: 10 })).items).toEqual([
      expect.objectContaining({ id: 'job-2', from: 'c-2', fingerprint: 'fp-x', same: null }),
    ]);
    // Nothing the move took: no campaign.
    expect(await recordItems(base, movedItems([answered[2]!]))).toBeNull();
  });

  it('a dead letter moved keeps the error it died of there, by its source id', () => {
    const before = new Map([['l-1', 'fp-a']]);
    expect(movedItems([{ id: 'l-1', outcome: 'ok', message: '', taskId: 'job-9' }], before)).toEqual([
      { id: 'job-9', before: 'fp-a', from: 'l-1' },
    ]);
  });
});

describe("a moved task's campaign by the ids of its letters and its source", () => {
  it('records the letter id the broker gives a dead task, and replays those (the task id where none)', async () => {
    const store = await tempStore();
    const moved = movedItems(['c-1', 'c-2', 'c-3', 'c-4'].map((c) => ({ id: c, outcome: 'ok', message: '', taskId: `job-${c}` })));
    const id = await store.create({ ...base, from: 'celery', firstRun: true }, moved);
    // job-c-1 died as letter 17 (a DLQ entry of its own), job-c-2 as a letter of its own id,
    // job-c-3 as one the broker names by the job's id, job-c-4 succeeded (a letter field ignored).
    const letters: Record<string, Partial<TaskFate>> = {
      'job-c-1': { fate: 'dead', fingerprint: 'fp-a', letter: '17' },
      'job-c-2': { fate: 'dead', fingerprint: 'fp-b' },
      'job-c-3': { fate: 'dead', fingerprint: null, letter: 'job-c-3' },
      'job-c-4': { letter: '99' },
    };
    const fates = async (_b: string, ids: string[]) => ids.map((t) => fate(t, letters[t] ?? {}));
    expect(await pollCampaign(store, id, { fates, now: () => Date.now() + MIN_POLL_MS })).toMatchObject({ looked: 4, settled: true });
    const items = (await store.items(id, { fate: 'all', limit: 10 })).items;
    expect(items.map((i) => [i.id, i.fate, i.letter])).toEqual([
      ['job-c-1', 'dead', '17'],
      ['job-c-2', 'dead', null],
      ['job-c-3', 'dead', null],
      ['job-c-4', 'succeeded', null],
    ]);
    expect(await store.deadAgain(id, 10)).toEqual([
      { id: '17', before: 'fp-a' },
      { id: 'job-c-2', before: 'fp-b' },
      { id: 'job-c-3', before: null },
    ]);
    expect(await store.deadAgain(id, 1)).toEqual([{ id: '17', before: 'fp-a' }]);
  });

  it('finds a moved task by its source id as by its target id, on its broker only when asked', async () => {
    const store = await tempStore();
    const moved = await store.create({ ...base, from: 'celery' }, [{ id: 'job-1', before: null, from: 'c-1' }]);
    const other = await store.create({ ...base, broker: 'sq', action: 'replay' }, [{ id: 'c-1', before: null }]);
    const found = async (task: string, broker?: string) =>
      (await store.list({ task, limit: 10, ...(broker ? { broker } : {}) })).items.map((c) => c.id).sort();
    expect(await found('job-1')).toEqual([moved]);
    expect(await found('c-1')).toEqual([moved, other].sort());
    expect(await found('c-1', 'qf')).toEqual([moved]);
    expect(await found('c-2')).toEqual([]);
  });
});

/** Moves each id to `job-<id>`; ids in `already` were put there by an earlier attempt. */
class MovingBackend extends FakeBackend {
  readonly already = new Set<string>();
  override async act(ids: string[]): Promise<ActionResult> {
    const r = await super.act(ids);
    const out = [...r.succeeded, ...r.failed].map((o): ActionOutcome => {
      if (this.already.has(o.id)) return { id: o.id, outcome: 'already', message: 'already there', taskId: `job-${o.id}` };
      return o.outcome === 'ok' ? { ...o, taskId: `job-${o.id}` } : o;
    });
    return {
      ...r,
      succeeded: out.filter((o) => o.outcome === 'ok' || o.outcome === 'already'),
      failed: out.filter((o) => o.outcome !== 'ok' && o.outcome !== 'already'),
    };
  }
}

describe("a bulk move of waiting tasks' campaign", () => {
  it('joins each batch under the target ids, an `already` once, a batch appended twice without a double', async () => {
    const b = new MovingBackend(idsFrom('w', 8));
    b.already.add('w-000002');
    b.running.add('w-000005');
    const job = new BulkJob({
      brokerId: 'celery',
      action: 'move-waiting',
      filter: { to: 'qf' },
      snapshot: await takeSnapshot(b),
      backend: b,
      batchSize: 4,
    });
    const heard: ActedItem[][] = [];
    job.onActed = async (it) => void heard.push(joining(job, it));
    job.start();
    await job.finished;
    const all = heard.flat();
    expect(all.map((a) => [a.n, a.id, a.from])).toEqual([0, 1, 2, 3, 4, 6, 7].map((n) => [n, `job-w-00000${n}`, `w-00000${n}`]));
    // A replay's campaign keeps its ids and leaves `already` out, as before.
    expect(
      joining({ action: 'replay' }, [
        { n: 0, id: 'a', taskId: 'x' },
        { n: 1, id: 'b', already: true },
      ]),
    ).toEqual([{ n: 0, id: 'a' }]);

    const store = await tempStore();
    const id = await store.openBulk(
      { ...base, action: 'bulk-move-waiting', from: 'celery', firstRun: true },
      { id: 'j1', state: 'running', why: null },
      8,
      null,
    );
    for (const batch of [...heard, heard[0]!]) await store.appendBulk(id, batch, null);
    const c = (await store.get(id))!;
    expect(c.rollup.total).toBe(7);
    expect(c.scope).toMatchObject({ from: 'celery', firstRun: true, ids: all.map((a) => a.id) });
    expect((await store.items(id, { fate: 'all', limit: 10 })).items.map((i) => i.from)).toEqual(all.map((a) => a.from));
  });
});
