import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgAvailable, searchPathUrl, sqlAdmin } from '@/tests/support/postgres';
import { openStateDbForTests } from '@/lib/bulk/store-open';
import { createSqlBulkStore } from '@/lib/bulk/store-sql';
import type { BulkRow, BulkStore } from '@/lib/bulk/store';

// The bulk-job tables on both state stores: outcomes numbered in the order saved across saves
// (each save one transaction of statements, nothing read in between), and the prune.

const schema = `bulkstore_${randomBytes(4).toString('hex')}`;
const pgUrl = searchPathUrl(schema);
const pg = await pgAvailable();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-bulk-store-'));

beforeAll(async () => {
  if (pg) await sqlAdmin(`CREATE SCHEMA ${schema}`);
});
afterAll(async () => {
  if (pg) await sqlAdmin(`DROP SCHEMA ${schema} CASCADE`);
  fs.rmSync(dir, { recursive: true, force: true });
});

const row = (id: string, o: Partial<BulkRow> = {}): BulkRow => ({
  id,
  brokerId: 'b1',
  action: 'replay',
  filter: {},
  state: 'running',
  rate: null,
  batchSize: 500,
  expectedCount: null,
  snapshotAt: '2026-12-03T10:00:00.000Z',
  capped: false,
  searchedNewest: null,
  createdAt: '2026-12-03T10:00:00.000Z',
  startedAt: null,
  finishedAt: null,
  error: null,
  stoppedAt: null,
  done: 0,
  inFlight: 0,
  total: 3,
  succeeded: 0,
  succeededSample: [],
  skipped: 0,
  failed: 0,
  batches: 0,
  auditId: null,
  owner: 'me',
  heartbeatMs: 1,
  control: null,
  interrupted: null,
  ...o,
});

async function saveAndPrune(s: BulkStore) {
  await s.create(row('j1'), ['a', 'b', 'c']);
  await s.create(row('j2'), ['x']);
  // Only the console holding a job's lease writes its row.
  expect(await s.claim('j1')).toBe(true);
  expect(await s.claim('j2')).toBe(true);
  const miss = (id: string) => ({ id, outcome: 'missing' as const, message: `${id} gone` });
  await s.save(row('j1', { done: 1 }), [miss('a')]);
  await s.save(row('j2'), [miss('x')]);
  // 450 in one save: three statements of at most 200, numbered on from the job's last one.
  const many = Array.from({ length: 450 }, (_, i) => miss(`m${i}`));
  await s.save(row('j1', { done: 3, state: 'done', finishedAt: '2026-12-03T10:01:00.000Z', owner: null }), [miss('b'), ...many]);
  const got = await s.outcomes('j1', 1000);
  expect(got.map((o) => o.id)).toEqual(['a', 'b', ...many.map((o) => o.id)]);
  expect(await s.outcomes('j2', 10)).toEqual([miss('x')]);
  expect(await s.get('j1')).toMatchObject({ state: 'done', done: 3, owner: null });
  // Finished before the cut-off: j1 and its outcomes go; the running j2 stays.
  await s.prune(Date.parse('2026-12-03T11:00:00.000Z'), 0);
  expect(await s.get('j1')).toBeNull();
  expect(await s.outcomes('j1', 10)).toEqual([]);
  expect(await s.get('j2')).toMatchObject({ state: 'running' });
}

describe('bulk jobs in the state store', () => {
  it('SQLite', async () => {
    const s = createSqlBulkStore(await openStateDbForTests(path.join(dir, 'state.sqlite3')));
    try {
      await saveAndPrune(s);
    } finally {
      await s.close();
    }
  });

  it.skipIf(!pg)('PostgreSQL', async () => {
    const s = createSqlBulkStore(await openStateDbForTests(pgUrl));
    try {
      await saveAndPrune(s);
    } finally {
      await s.close();
    }
  });
});
