import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgAvailable, searchPathUrl, sqlAdmin } from '@/tests/support/postgres';
import { openStateDbForTests } from '@/lib/bulk/store-open';
import { createSqlLeaseStore, type PauseLease, type PauseLeaseStore } from '@/lib/leases/store';

// The pause-lease table on both state stores, as two console instances see it: two stores on one
// SQLite file, and two on one PostgreSQL schema of this test's own (creating the table at once).

const schema = `leases_${randomBytes(4).toString('hex')}`;
const pgUrl = searchPathUrl(schema);
const pg = await pgAvailable();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-leases-'));

beforeAll(async () => {
  if (pg) await sqlAdmin(`CREATE SCHEMA ${schema}`);
});
afterAll(async () => {
  if (pg) await sqlAdmin(`DROP SCHEMA ${schema} CASCADE`);
  fs.rmSync(dir, { recursive: true, force: true });
});

const lease = (owner: string, o: Partial<PauseLease> = {}): PauseLease => ({
  broker: 'qf',
  queue: 'mail',
  owner,
  startedAt: '2026-12-02T01:00:00.000Z',
  deadlineMs: 1_000_000,
  pausedByConsole: false,
  detail: { letter: '7' },
  ...o,
});

async function twoInstances(a: PauseLeaseStore, b: PauseLeaseStore) {
  // Of two instances taking one queue at once, exactly one holds it.
  const won = await Promise.all([a.acquire(lease('A')), b.acquire(lease('B'))]);
  expect(won.filter(Boolean)).toHaveLength(1);
  const [holder, other] = won[0] ? (['A', 'B'] as const) : (['B', 'A'] as const);
  const [mine, theirs] = won[0] ? [a, b] : [b, a];
  expect(await theirs.get('qf', 'mail')).toMatchObject({
    owner: holder,
    pausedByConsole: false,
    detail: { letter: '7' },
    deadlineMs: 1_000_000,
  });
  // Only its owner renews it; a patch left out keeps what was recorded.
  expect(await theirs.update('qf', 'mail', other, { deadlineMs: 2_000_000 })).toBe(false);
  expect(await mine.update('qf', 'mail', holder, { deadlineMs: 2_000_000, pausedByConsole: true })).toBe(true);
  expect(await mine.update('qf', 'mail', holder, { deadlineMs: 2_100_000, detail: { letter: '7', copy: 'c' } })).toBe(true);
  expect(await theirs.get('qf', 'mail')).toMatchObject({
    pausedByConsole: true,
    detail: { letter: '7', copy: 'c' },
    deadlineMs: 2_100_000,
  });
  // Taken over only once its deadline passed, and by one recoverer.
  expect(await theirs.takeOver('qf', 'mail', holder, 'R', 2_000_000, 2_200_000)).toBe(false);
  const took = await Promise.all([
    a.takeOver('qf', 'mail', holder, 'R1', 3_000_000, 3_100_000),
    b.takeOver('qf', 'mail', holder, 'R2', 3_000_000, 3_100_000),
  ]);
  expect(took.filter(Boolean)).toHaveLength(1);
  // The old holder can neither renew nor record progress on it any more.
  expect(await mine.update('qf', 'mail', holder, { deadlineMs: 4_000_000 })).toBe(false);
  expect(await mine.update('qf', 'mail', holder, { deadlineMs: 4_000_000, detail: { letter: '7', copy: 'late' } })).toBe(false);
  expect((await b.get('qf', 'mail'))?.detail).toEqual({ letter: '7', copy: 'c' });
  // A broker whose id starts with this one's is another broker.
  expect(await a.acquire({ ...lease('Z'), broker: 'qf2' })).toBe(true);
  // The old holder's release leaves the recoverer's lease alone.
  await mine.release('qf', 'mail', holder);
  expect((await a.list('qf')).map((l) => l.owner)).toEqual([took[0] ? 'R1' : 'R2']);
  await a.release('qf', 'mail', took[0] ? 'R1' : 'R2');
  expect(await b.get('qf', 'mail')).toBeNull();
  expect(await b.list('qf')).toEqual([]);
  expect((await b.list('qf2')).map((l) => [l.broker, l.queue, l.owner])).toEqual([['qf2', 'mail', 'Z']]);
  await b.release('qf2', 'mail', 'Z');
}

describe('console pause leases in the state store', () => {
  it('SQLite: two instances on one file', async () => {
    const file = path.join(dir, 'state.sqlite3');
    const [a, b] = [createSqlLeaseStore(await openStateDbForTests(file)), createSqlLeaseStore(await openStateDbForTests(file))];
    try {
      await twoInstances(a, b);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it.skipIf(!pg)('PostgreSQL: two instances on one schema, creating the table together', async () => {
    const [ra, rb] = await Promise.all([openStateDbForTests(pgUrl), openStateDbForTests(pgUrl)]);
    const [a, b] = [createSqlLeaseStore(ra), createSqlLeaseStore(rb)];
    try {
      await twoInstances(a, b);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
