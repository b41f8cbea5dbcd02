// A campaign's follow-up on the REAL QueueFlow server with the real Python client's worker:
// letters replayed (QueueFlow keeps each, marked with `replay_job_id`, and runs a new job), half
// fixed and half failing again with the same error; the console restarts mid-follow-up.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createQueueflowAdapter } from '@/lib/brokers/queueflow/adapter';
import { adapterContext } from '@/lib/brokers/systems-context';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { MIN_POLL_MS, pollCampaign } from '@/lib/campaigns/follow';
import { openSqliteCampaignStore } from '@/lib/campaigns/open';
import type { CampaignStore } from '@/lib/campaigns/store';
import { ZDeadListQuery } from '@/lib/brokers/schema';
import { produce, PyWorker, startQueueflow, uniqueQueue, until } from '@/tests/queueflow/support';

const s = startQueueflow();
const Q = uniqueQueue('qfcp');
const workers: PyWorker[] = [];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-qf-'));
afterAll(async () => {
  for (const w of workers) await w.stop();
  s?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);

const open = () =>
  createQueueflowAdapter({ id: 'qf', name: 'QueueFlow', url: s!.url, readOnly: false, options: { token: s!.token } }, adapterContext());
let clock = Date.now();

(s ? describe : describe.skip)('campaign follow-up on QueueFlow with its real server and worker', () => {
  it('follows each letter to the job its replay made: half completed, half dead again with the same error', async () => {
    let adapter: BrokerAdapter = open();
    let store: CampaignStore = await openSqliteCampaignStore(path.join(dir, 'state.sqlite3'));
    const poll = (id: string) => {
      clock += MIN_POLL_MS;
      return pollCampaign(store, id, { fates: async (_b, batch) => adapter.fate!(batch), now: () => clock });
    };
    produce(
      s!,
      Array.from({ length: 8 }, (_, n) => ({ task: 'qf.fatal', queue: Q, payload: { n } })),
    );
    const w1 = new PyWorker(s!, Q);
    workers.push(w1);
    w1.start();
    const letters = await until(
      'eight dead letters',
      async () => {
        const items = (await adapter.listDead(ZDeadListQuery.parse({ queue: Q, limit: 50 }))).items;
        return items.length === 8 ? items.map((d) => d.id) : null;
      },
      60_000,
      () => w1.log,
    );
    await w1.stop();

    const before = await adapter.fate!(letters);
    expect(before.every((f) => f.fate === 'dead' && f.fingerprint)).toBe(true);
    const r = await adapter.replayDead(letters);
    expect(r.failed).toEqual([]);
    const id = await store.create(
      { broker: 'qf', action: 'replay', who: 'olga', reason: 'validation fixed', auditId: null, parent: null, filter: null },
      letters.map((l) => ({ id: l, before: before.find((f) => f.id === l)!.fingerprint })),
    );
    await poll(id);
    const waiting = await store.items(id, { fate: 'all', limit: 10 });
    expect(waiting.items.every((i) => i.fate === 'waiting' && i.followed)).toBe(true);

    // The console restarts; the fix is deployed for the even payloads; a worker runs the replays.
    adapter = open();
    store = await openSqliteCampaignStore(path.join(dir, 'state.sqlite3'));
    const w2 = new PyWorker(s!, Q);
    workers.push(w2);
    for (let n = 0; n < 8; n += 2) fs.writeFileSync(path.join(w2.out, `fixed-${n}`), '');
    w2.start();
    const c = await until(
      'the campaign to settle',
      async () => {
        await poll(id);
        const now = (await store.get(id))!;
        return now.follow.state === 'settled' ? now : null;
      },
      90_000,
      () => w2.log,
    );
    expect(c.rollup).toMatchObject({ total: 8, succeeded: 4, deadSame: 4, deadNew: 0, deadUnlinked: 0 });
    const dead = await store.items(id, { fate: 'dead-same', limit: 10 });
    expect(dead.items.every((i) => i.followed && i.followed !== i.id && /n=\d+ is not valid/.test(i.detail))).toBe(true);
    // Each died again as a letter of its own (its replay job's), which "replay again" takes: not
    // the letter replayed already, which QueueFlow would refuse.
    expect(dead.items.every((i) => i.letter && !letters.includes(i.letter))).toBe(true);
    expect((await store.deadAgain(id, 10)).map((d) => d.id)).toEqual(dead.items.map((i) => i.letter));

    // 150 more letters of the same task after those: each replay's own letter is still found
    // (past the newest 50 of its task since it was created, where the search used to stop).
    produce(
      s!,
      Array.from({ length: 150 }, (_, n) => ({ task: 'qf.fatal', queue: Q, payload: { n: 1000 + n } })),
    );
    await until(
      '150 more dead letters',
      async () => ((await adapter.listDead(ZDeadListQuery.parse({ queue: Q, limit: 500 }))).items.length >= 8 + 4 + 150 ? true : null),
      120_000,
      () => w2.log,
    );
    const again = await adapter.fate!(dead.items.map((i) => i.id));
    expect(again.map((f) => [f.fate, f.letter])).toEqual(dead.items.map((i) => ['dead', i.letter]));
  }, 360_000);
});
