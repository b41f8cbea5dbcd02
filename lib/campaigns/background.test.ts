import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TaskFate } from '@/lib/brokers/dto-fate';
import { createFollower, parseFollowInterval, ROUND_CAMPAIGNS, SAY_AGAIN_MS } from './background';
import { MIN_POLL_MS } from './follow';
import { openSqliteCampaignStore } from './open';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
const tempFile = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'follower-'));
  dirs.push(d);
  return path.join(d, 'state.sqlite3');
};
const base = { broker: 'b1', action: 'replay', who: 'olga', reason: 'fix', auditId: null, parent: null, filter: null };
const fate = (id: string, f: TaskFate['fate']): TaskFate => ({
  id,
  fate: f,
  state: null,
  fingerprint: null,
  detail: f,
  followed: null,
  at: null,
});

describe('the background follower', () => {
  it('polls at most a round of open campaigns, longest unpolled first, each once per interval', async () => {
    const store = await openSqliteCampaignStore(tempFile());
    const ids: string[] = [];
    for (let i = 0; i < ROUND_CAMPAIGNS + 2; i++) ids.push(await store.create(base, [{ id: `t${i}`, before: null }]));
    let now = Date.now();
    const asked: string[] = [];
    const f = createFollower({
      store: async () => store,
      fates: async (_b, batch) => (asked.push(...batch), batch.map((t) => fate(t, 'waiting'))),
      intervalMs: 1000,
      now: () => now,
    });
    expect(await f.round()).toEqual({ polled: ROUND_CAMPAIGNS, looked: ROUND_CAMPAIGNS, settled: 0 });
    // Within the minimum interval nothing is due again, but the two never polled are.
    expect(await f.round()).toEqual({ polled: 2, looked: 2, settled: 0 });
    now += MIN_POLL_MS;
    const third = await f.round();
    expect(third.polled).toBe(ROUND_CAMPAIGNS);
    expect(new Set(asked).size).toBe(ROUND_CAMPAIGNS + 2);
  });

  it('stops following settled campaigns and logs a broker that fails without stopping the round', async () => {
    const store = await openSqliteCampaignStore(tempFile());
    const a = await store.create({ ...base, broker: 'down' }, [{ id: 'x', before: null }]);
    const b = await store.create(base, [{ id: 'y', before: null }]);
    const logged: Array<Record<string, unknown>> = [];
    const f = createFollower({
      store: async () => store,
      fates: async (broker, batch) => {
        if (broker === 'down') throw new Error('connection refused');
        return batch.map((t) => fate(t, 'succeeded'));
      },
      intervalMs: 1000,
      log: (e) => logged.push(e),
    });
    expect(await f.round()).toMatchObject({ polled: 2, settled: 1 });
    expect((await store.get(b))!.follow.state).toBe('settled');
    expect((await store.get(a))!.follow.state).toBe('following');
    expect(logged).toEqual([{ event: 'console.campaigns.follow-failed', campaign: a, message: 'connection refused' }]);
    expect(await store.following(10)).toEqual([a]);
  });

  it('logs a broker that stays down once per campaign, again when the failure changes or after a while', async () => {
    const store = await openSqliteCampaignStore(tempFile());
    const a = await store.create({ ...base, broker: 'down' }, [{ id: 'x', before: null }]);
    const logged: string[] = [];
    let now = Date.now();
    let why = 'connection refused';
    const f = createFollower({
      store: async () => store,
      fates: async () => {
        throw new Error(why);
      },
      intervalMs: 1000,
      now: () => now,
      log: (e) => logged.push(String(e.message)),
    });
    for (let i = 0; i < 5; i++) {
      expect(await f.round()).toMatchObject({ polled: 1 });
      now += MIN_POLL_MS + 1;
    }
    expect(logged).toEqual(['connection refused']);
    why = 'timed out after 5000 ms';
    await f.round();
    now += SAY_AGAIN_MS;
    await f.round();
    expect(logged).toEqual(['connection refused', 'timed out after 5000 ms', 'timed out after 5000 ms']);
    expect(await store.following(10)).toEqual([a]);
  });

  it('reads its interval from the environment, naming the variable when bad', () => {
    expect(parseFollowInterval({})).toBe(5000);
    expect(parseFollowInterval({ POTATOQ_CONSOLE_CAMPAIGN_FOLLOW_S: '0' })).toBe(0);
    expect(() => parseFollowInterval({ POTATOQ_CONSOLE_CAMPAIGN_FOLLOW_S: 'soon' })).toThrow(/POTATOQ_CONSOLE_CAMPAIGN_FOLLOW_S/);
  });
});
