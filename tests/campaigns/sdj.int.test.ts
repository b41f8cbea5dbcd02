// A campaign's follow-up on Simple Durable Jobs rows (PostgreSQL and MySQL). The library's Go
// worker is not available here, so its writes are made as docs/systems/simple-durable-jobs.md
// records them (tests/brokers/sdj/rows.ts: claim, complete, dead-letter): the console replays
// eight letters, half complete and half die again (two with the same error, two with a new one),
// one completed row is removed by retention before anyone looked (gone), and the console
// restarts between looks.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createSdjAdapter } from '@/lib/brokers/sdj/adapter';
import { adapterContext } from '@/lib/brokers/systems-context';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { MIN_POLL_MS, pollCampaign } from '@/lib/campaigns/follow';
import { openSqliteCampaignStore } from '@/lib/campaigns/open';
import type { CampaignStore } from '@/lib/campaigns/store';
import { claim, deadLetter, idOf, makeDeadLetter, q } from '@/tests/brokers/sdj/rows';
import { availableDialects, DIALECTS, freshSdj, type Sdj } from '@/tests/brokers/sdj/support';

const up = await availableDialects();

for (const dialect of DIALECTS) {
  describe.skipIf(!up[dialect])(`campaign follow-up on Simple Durable Jobs rows (${dialect})`, () => {
    let s: Sdj | undefined;
    let adapter: BrokerAdapter | undefined;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-sdj-'));
    afterEach(async () => {
      await adapter?.close();
      await s?.done();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('tells completed, dead again (same or new error), waiting, and gone after retention, across a restart', async () => {
      s = await freshSdj(dialect);
      const db = s.db;
      const open = () =>
        createSdjAdapter({ id: 'sdj', name: 'SDJ', url: db.url, readOnly: false, options: { lockWaitMs: 500 } }, adapterContext());
      adapter = open();
      let store: CampaignStore = await openSqliteCampaignStore(path.join(dir, 'state.sqlite3'));
      let clock = Date.now();
      const poll = (id: string) => {
        clock += MIN_POLL_MS;
        return pollCampaign(store, id, { fates: async (_b, batch) => adapter!.fate!(batch), now: () => clock });
      };
      const queue = `cp-${randomBytes(3).toString('hex')}`;
      const ids: string[] = [];
      for (let n = 0; n < 9; n++) ids.push(await makeDeadLetter(db, { queue, args: { n }, error: `card ${n} declined` }));

      const before = await adapter.fate!(ids);
      expect(before.every((f) => f.fate === 'dead' && f.fingerprint)).toBe(true);
      const r = await adapter.replayDead(ids);
      expect(r.failed).toEqual([]);
      const id = await store.create(
        { broker: 'sdj', action: 'replay', who: 'olga', reason: 'card check fixed', auditId: null, parent: null, filter: null },
        ids.map((t) => ({ id: t, before: before.find((f) => f.id === t)!.fingerprint })),
      );
      await poll(id);
      expect((await store.get(id))!.rollup).toMatchObject({ waiting: 9 });

      // The worker's writes: complete the even ones, fail 1 and 5 the same way, 3 and 7 anew; 8 stays waiting.
      const now = dialect === 'postgres' ? 'NOW()' : 'NOW(6)';
      for (let n = 0; n < 8; n++) {
        const t = ids[n]!;
        await claim(db, t);
        if (n % 2 === 0)
          await q(
            db,
            `UPDATE jobs SET status = 'completed', completed_at = ${now}, locked_by = '', locked_until = NULL, updated_at = ${now} WHERE id = ?`,
            [idOf(db, t)],
          );
        else await deadLetter(db, t, n % 4 === 1 ? `card ${n} declined` : `account ${n} closed: ledger locked`);
      }
      // Retention removes one completed row before the console looks again.
      await q(db, 'DELETE FROM jobs WHERE id = ?', [idOf(db, ids[6]!)]);

      // The console restarts: a new adapter and a new state-store handle.
      await adapter.close();
      adapter = open();
      store = await openSqliteCampaignStore(path.join(dir, 'state.sqlite3'));
      await poll(id);
      const c = (await store.get(id))!;
      expect(c.rollup).toMatchObject({ total: 9, succeeded: 3, deadSame: 2, deadNew: 2, gone: 1, waiting: 1 });
      expect(c.follow.state).toBe('following');
      const gone = await store.items(id, { fate: 'gone', limit: 5 });
      expect(gone.items.map((i) => i.id)).toEqual([ids[6]]);
      expect(gone.items[0]!.detail).toMatch(/retention/);
    });
  });
}
