import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConsoleError } from '@/lib/brokers/errors';
import { FATE_BATCH, type TaskFate } from '@/lib/brokers/dto-fate';
import { MIN_POLL_MS, pollCampaign } from './follow';
import { openSqliteCampaignStore } from './open';

const dirs: string[] = [];
const tempFile = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'campaigns-'));
  dirs.push(d);
  return path.join(d, 'state.sqlite3');
};
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

const fate = (id: string, f: TaskFate['fate'], fingerprint: string | null = null): TaskFate => ({
  id,
  fate: f,
  state: null,
  fingerprint,
  detail: f,
  followed: null,
  at: null,
});
const base = { broker: 'b1', action: 'replay', who: 'olga', reason: 'fixed the bug', auditId: null, parent: null, filter: null };

describe('campaign follow-up', () => {
  it('looks at one batch per poll, at most one poll per interval, until every task is settled', async () => {
    const store = await openSqliteCampaignStore(tempFile());
    const ids = Array.from({ length: 250 }, (_, i) => `t${i}`);
    const id = await store.create(
      base,
      ids.map((t) => ({ id: t, before: 'fp-a' })),
    );
    const asked: number[] = [];
    // Even tasks succeed, odd ones die again: every third of those with a new error.
    const fates = async (_b: string, batch: string[]) => {
      asked.push(batch.length);
      return batch.map((t) => {
        const n = Number(t.slice(1));
        return n % 2 === 0 ? fate(t, 'succeeded') : fate(t, 'dead', n % 3 === 0 ? 'fp-b' : 'fp-a');
      });
    };
    let now = Date.now();
    const clock = () => now;
    expect(await pollCampaign(store, id, { fates, now: clock })).toMatchObject({ polled: true, looked: FATE_BATCH });
    expect(await pollCampaign(store, id, { fates, now: clock })).toEqual({ polled: false, why: 'not-due' });
    for (let i = 0; i < 3; i++) {
      now += MIN_POLL_MS;
      await pollCampaign(store, id, { fates, now: clock });
    }
    expect(asked).toEqual([100, 100, 50]);
    const c = (await store.get(id))!;
    expect(c.follow.state).toBe('settled');
    expect(c.rollup).toMatchObject({ total: 250, succeeded: 125, deadSame: 83, deadNew: 42, pending: 0 });
    const same = await store.items(id, { fate: 'dead-new', limit: 5 });
    expect(same.items.map((i) => i.id)).toEqual(['t3', 't9', 't15', 't21', 't27']);
    expect(same.nextCursor).not.toBeNull();
  });

  it('resumes from the store after a restart, looking again only at unsettled tasks', async () => {
    const file = tempFile();
    let store = await openSqliteCampaignStore(file);
    const id = await store.create(base, [
      { id: 'a', before: null },
      { id: 'b', before: null },
    ]);
    let now = Date.now();
    await pollCampaign(store, id, {
      fates: async (_b, ids) => ids.map((t) => fate(t, t === 'a' ? 'succeeded' : 'waiting')),
      now: () => now,
    });
    // A new console process: a fresh handle on the same file.
    store = await openSqliteCampaignStore(file);
    now += MIN_POLL_MS;
    const seen: string[][] = [];
    await pollCampaign(store, id, {
      fates: async (_b, ids) => (seen.push(ids), ids.map((t) => fate(t, 'dead', 'fp-x'))),
      now: () => now,
    });
    expect(seen).toEqual([['b']]);
    expect((await store.get(id))!.rollup).toMatchObject({ succeeded: 1, deadUnlinked: 1 });
  });

  it('turns the follow-up off with the broker’s reason where it tells no fates, and keeps items on a failed read', async () => {
    const store = await openSqliteCampaignStore(tempFile());
    const id = await store.create(base, [{ id: 'a', before: null }]);
    let now = Date.now();
    const down = await pollCampaign(store, id, {
      fates: async () => {
        throw new ConsoleError('BrokerUnavailable', 'connection refused');
      },
      now: () => now,
    });
    expect(down).toMatchObject({ polled: true, looked: 0, error: 'connection refused' });
    expect((await store.get(id))!.rollup.pending).toBe(1);
    now += MIN_POLL_MS;
    await pollCampaign(store, id, {
      fates: async () => {
        throw new ConsoleError('Unsupported', 'RabbitMQ keeps no results');
      },
      now: () => now,
    });
    expect((await store.get(id))!.follow).toMatchObject({ state: 'off', why: 'RabbitMQ keeps no results' });
  });
});
