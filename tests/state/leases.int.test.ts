import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgAvailable, searchPathUrl, sqlAdmin } from '@/tests/support/postgres';
import { createLeases } from '@/lib/state/leases';
import { openStateDbForTests, type SqlRunner } from '@/lib/state/sql';

// The state store's one lease primitive as two console processes see it: two store instances
// (each its own handle) on one PostgreSQL database, and on one SQLite file. Times come from an
// explicit clock, so expiry is a number, not a wait.

const schema = `state_leases_${randomBytes(4).toString('hex')}`;
const ok = await pgAvailable();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-state-leases-'));

beforeAll(async () => {
  if (ok) await sqlAdmin(`CREATE SCHEMA ${schema}`);
});
afterAll(async () => {
  if (ok) await sqlAdmin(`DROP SCHEMA ${schema} CASCADE`);
  fs.rmSync(dir, { recursive: true, force: true });
});

const kinds = [
  { name: 'PostgreSQL', where: () => searchPathUrl(schema), skip: !ok },
  { name: 'SQLite', where: () => path.join(dir, 'state.sqlite3'), skip: false },
] as const;

for (const k of kinds) {
  describe.skipIf(k.skip)(`one lease, two console processes (${k.name})`, () => {
    let a: SqlRunner;
    let b: SqlRunner;
    beforeAll(async () => {
      [a, b] = await Promise.all([openStateDbForTests(k.where()), openStateDbForTests(k.where())]);
    });
    afterAll(async () => {
      await Promise.all([a?.close(), b?.close()]);
    });

    it('exactly one of two takers holds it; the other takes it over only once it expired', async () => {
      for (let round = 0; round < 20; round++) {
        const name = `contended/${k.name}/${round}`;
        const lease = (holder: string) => ({ name, holder, expiresMs: 10_000, startedAt: '2026-12-04T00:00:00.000Z', data: null });
        const [la, lb] = [createLeases(a), createLeases(b)];
        const won = await Promise.all([la.acquire(lease('A')), lb.acquire(lease('B'))]);
        expect(won.filter(Boolean)).toHaveLength(1);
        const [winner, loser, w, l] = won[0] ? [la, lb, 'A', 'B'] : [lb, la, 'B', 'A'];
        expect((await loser.get(name))?.holder).toBe(w);
        // Live: no takeover, and the holder still renews.
        expect(await loser.takeOver(name, w, l, 9_999, 20_000)).toBe(false);
        expect(await winner.renew(name, w, 10_000)).toBe(true);
        // Expired: of two takers only one takes it over, and the old holder's renewal fails.
        const third = createLeases(round % 2 ? a : b);
        const over = await Promise.all([loser.takeOver(name, w, l, 10_001, 20_000), third.takeOver(name, w, 'C', 10_001, 20_000)]);
        expect(over.filter(Boolean)).toHaveLength(1);
        expect(await winner.renew(name, w, 30_000)).toBe(false);
        expect((await winner.get(name))?.holder).toBe(over[0] ? l : 'C');
      }
    });

    it('claim (the trend sampler): one holder at a time, renewed by it, taken by another once it ran out', async () => {
      let t = 1_000_000;
      const clock = () => t;
      const [la, lb] = [createLeases(a, clock), createLeases(b, clock)];
      const won = await Promise.all([la.claim('sampler', 'A', 1000), lb.claim('sampler', 'B', 1000)]);
      expect(won.filter(Boolean)).toHaveLength(1);
      const [w, l, wl, ll] = won[0] ? (['A', 'B', la, lb] as const) : (['B', 'A', lb, la] as const);
      t += 500;
      expect(await ll.claim('sampler', l, 1000)).toBe(false);
      expect(await wl.claim('sampler', w, 1000)).toBe(true);
      expect(await ll.holder('sampler')).toBe(w);
      t += 1001;
      expect(await ll.holder('sampler')).toBeNull();
      expect(await ll.claim('sampler', l, 1000)).toBe(true);
      expect(await wl.claim('sampler', w, 1000)).toBe(false);
      expect(await wl.holder('sampler')).toBe(l);
      await wl.release('sampler', w);
      expect(await wl.holder('sampler')).toBe(l);
      await ll.release('sampler', l);
      expect(await wl.get('sampler')).toBeNull();
    });
  });
}
