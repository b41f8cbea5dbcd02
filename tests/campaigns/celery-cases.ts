// A campaign's follow-up against the REAL Celery 5.7 worker, results in Redis, on whichever
// broker the caller gives (Redis, RabbitMQ): FAILURE records replayed after a fix, where half fail
// again (a quarter with the same error, a quarter with a new one); a console restart
// mid-follow-up; a SUCCESS record Redis expires. What the broker cannot tell differs, and is
// the caller's to state: a message waiting in Redis is found (waiting), in RabbitMQ it is not
// (unknown, with why); an expired record is gone on Redis, unknown on RabbitMQ (it might wait).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { MIN_POLL_MS, pollCampaign } from '@/lib/campaigns/follow';
import { openSqliteCampaignStore } from '@/lib/campaigns/open';
import type { CampaignStore } from '@/lib/campaigns/store';
import { startWorker, stopWorker, until, type CeleryWorld } from '@/tests/brokers/celery/redis/support';
import { replayAsCampaign, untilSettled } from './support';
import { PYTHON, ROOT } from '@/tests/support/potatoq-seeder';

export interface CeleryCampaignSetup {
  world: CeleryWorld;
  queue: string;
  open(): BrokerAdapter;
  /** What a replayed task waiting in its queue reads as, and one word of its detail. */
  waiting: { fate: 'waiting' | 'unknown'; detail: RegExp };
  /** What a task whose SUCCESS record Redis expired reads as. */
  expired: { fate: 'gone' | 'unknown'; detail: RegExp };
  /** Removes what the run left in the brokers. */
  cleanup(): Promise<void>;
}

export function celeryCampaignCases(s: CeleryCampaignSetup): void {
  const w = s.world;
  let adapter: BrokerAdapter;
  let store: CampaignStore;
  let ids: string[];
  let worker: ReturnType<typeof startWorker> | null = null;
  let dir: string;
  let clock = Date.now();
  const poll = (id: string) => {
    clock += MIN_POLL_MS;
    return pollCampaign(store, id, { fates: async (_b, batch) => adapter.fate!(batch), now: () => clock });
  };
  const run = (env: Record<string, string> = {}) => (worker = startWorker({ ...w, env: { ...w.env, ...env } }, [s.queue], s.queue));
  const halt = async () => {
    if (worker) await stopWorker(worker.proc);
    worker = null;
  };

  const replay = (ids: string[]) => replayAsCampaign(adapter, store, ids);

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-celery-'));
    const send = `from rt_celery_app import app\nprint(" ".join(app.send_task("cp.half", (i,), queue="${s.queue}").id for i in range(24)))`;
    ids = execFileSync(PYTHON, ['-c', send], { cwd: path.join(ROOT, 'tests/py'), env: { ...process.env, ...w.env } })
      .toString()
      .trim()
      .split(' ');
    adapter = s.open();
    store = await openSqliteCampaignStore(path.join(dir, 'state.sqlite3'));
    run();
    await until(
      'every FAILURE record',
      async () => (await Promise.all(ids.map((i) => adapter.getDead(i)))).every(Boolean),
      90_000,
      worker!.log,
    );
    await halt();
  }, 120_000);

  afterAll(async () => {
    await halt();
    await adapter?.close();
    await s.cleanup();
    fs.rmSync(w.out, { recursive: true, force: true });
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  it('tells half failed again (same error or new), half succeeded, across a console restart', async () => {
    fs.writeFileSync(path.join(w.out, 'fixed'), '');
    const id = await replay(ids.slice(0, 20));
    expect(await poll(id)).toMatchObject({ polled: true, looked: 20, settled: false });
    expect((await store.get(id))!.rollup).toMatchObject({ [s.waiting.fate]: 20 });
    expect((await store.items(id, { fate: s.waiting.fate, limit: 1 })).items[0]!.detail).toMatch(s.waiting.detail);

    await adapter.close();
    adapter = s.open();
    store = await openSqliteCampaignStore(path.join(dir, 'state.sqlite3'));
    run();
    const c = await untilSettled(() => store, id, poll, 90_000, worker!.log);
    expect(c.rollup).toMatchObject({ total: 20, succeeded: 10, deadSame: 5, deadNew: 5, gone: 0, unknown: 0 });
    const fresh = await store.items(id, { fate: 'dead-new', limit: 100 });
    expect(fresh.items.map((i) => i.id).sort()).toEqual([3, 7, 11, 15, 19].map((n) => ids[n]).sort());
    await halt();
  }, 150_000);

  it(`says ${s.expired.fate}, not succeeded, once Redis expired the SUCCESS record`, async () => {
    const pair = [ids[20]!, ids[22]!];
    const id = await replay(pair);
    run({ CT_RESULT_EXPIRES: '1' });
    await until(
      'both SUCCESS records',
      async () => (await Promise.all(pair.map((i) => adapter.getResult(i)))).every((r) => r?.status === 'SUCCESS'),
      60_000,
      worker!.log,
    );
    await halt();
    await until(
      'Redis to expire them',
      async () => (await Promise.all(pair.map((i) => adapter.getResult(i)))).every((r) => r === null),
      10_000,
    );
    await poll(id);
    expect((await store.get(id))!.rollup).toMatchObject({ [s.expired.fate]: 2, succeeded: 0 });
    expect((await store.items(id, { fate: s.expired.fate, limit: 1 })).items[0]!.detail).toMatch(s.expired.detail);
  }, 120_000);
}
