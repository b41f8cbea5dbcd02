import { describe, expect, it } from 'vitest';
import { FATE_BATCH } from '@/lib/brokers/dto-fate';
import { fatesFrom, READS_PER_ID, type FateReads } from './fate';

const states = [
  { key: 'ready', label: 'Ready', time: { field: 'createdAt', label: 'Enqueued' }, order: 'oldest', owned: false },
  { key: 'running', label: 'Running', time: { field: 'claimedAt', label: 'Claimed' }, order: 'oldest', owned: true },
] as unknown as FateReads['states'];

// A system's rows in memory: what each read finds per id.
function reads(rows: {
  live?: Record<string, string>;
  dead?: Record<string, string>;
  ok?: string[];
  failed?: Record<string, string>;
}): FateReads & { n: number } {
  const r = {
    n: 0,
    states,
    live: async (id: string) => (r.n++, rows.live?.[id] ?? null),
    dead: async (id: string) => (r.n++, rows.dead?.[id] ? { fingerprint: rows.dead[id]!, detail: 'ValueError: x', at: null } : null),
    result: async (id: string) => {
      r.n++;
      if (rows.ok?.includes(id)) return { ok: true, detail: 'SUCCESS', at: null };
      const f = rows.failed?.[id];
      return f ? { ok: false, detail: 'KeyError', at: null, fingerprint: f } : null;
    },
    nothing: { fate: 'gone' as const, detail: 'result expired' },
  };
  return r;
}

describe('fatesFrom', () => {
  it('tells each fate in the ids order: success, dead letter, failed result, waiting, running, gone', async () => {
    const f = await fatesFrom(
      ['ok', 'died', 'failed', 'waits', 'runs', 'none'],
      reads({ ok: ['ok'], dead: { died: 'fp-a' }, failed: { failed: 'fp-b' }, live: { waits: 'ready', runs: 'running' } }),
    );
    expect(f.map((x) => [x.id, x.fate, x.fingerprint])).toEqual([
      ['ok', 'succeeded', null],
      ['died', 'dead', 'fp-a'],
      ['failed', 'dead', 'fp-b'],
      ['waits', 'waiting', null],
      ['runs', 'running', null],
      ['none', 'gone', null],
    ]);
    expect(f[5]!.detail).toBe('result expired');
  });

  it("prefers the dead letter's fingerprint to the failed result's", async () => {
    const [f] = await fatesFrom(['x'], reads({ dead: { x: 'fp-letter' }, failed: { x: 'fp-result' } }));
    expect(f).toMatchObject({ fate: 'dead', fingerprint: 'fp-letter' });
  });

  it('follows the id the replay gave the work, and says why when it cannot', async () => {
    const r = {
      ...reads({ ok: ['job-2'] }),
      follow: async (id: string) => (id === 'a' ? { id: 'job-2' } : { unknown: 'no replay recorded' }),
    };
    const [a, b] = await fatesFrom(['a', 'b'], r);
    expect(a).toMatchObject({ fate: 'succeeded', followed: 'job-2' });
    expect(b).toMatchObject({ fate: 'unknown', detail: 'no replay recorded' });
  });

  it("says the letter's own id where the system gives it one (what a replay of it takes)", async () => {
    const r = { ...reads({}), dead: async (id: string) => ({ fingerprint: 'fp-a', detail: 'x', at: null, letter: `L-${id}` }) };
    const [f] = await fatesFrom(['job-1'], { ...r, follow: async () => ({ id: 'job-2' }) });
    expect(f).toMatchObject({ id: 'job-1', followed: 'job-2', fate: 'dead', letter: 'L-job-2' });
  });

  it('costs at most READS_PER_ID reads an id and refuses more than a batch', async () => {
    // Every read of each id, none of which finds it: the most an id costs.
    const r = reads({});
    let n = 0;
    const counted = { ...r, follow: async (id: string) => (n++, { id }) };
    await fatesFrom(
      Array.from({ length: FATE_BATCH }, (_, i) => `t${i}`),
      counted,
    );
    expect(r.n + n).toBe(FATE_BATCH * READS_PER_ID);
    await expect(
      fatesFrom(
        Array.from({ length: FATE_BATCH + 1 }, (_, i) => `t${i}`),
        r,
      ),
    ).rejects.toThrow(/ids: at most/);
  });

  it('reads a task that finished while it was read again, not calling it gone', async () => {
    // Running when the result and the letter were read; done (result stored, row gone) by the
    // time the live read looked: what a real worker does between two reads.
    const rows: { live: Record<string, string>; ok: string[] } = { live: { x: 'running' }, ok: [] };
    const r = reads(rows);
    const live = r.live;
    r.live = async (id) => {
      const seen = rows.live[id] ? null : await live(id);
      rows.live = {};
      rows.ok = ['x'];
      return seen;
    };
    const [f] = await fatesFrom(['x'], r);
    expect(f).toMatchObject({ fate: 'succeeded', detail: 'SUCCESS' });
  });
});
