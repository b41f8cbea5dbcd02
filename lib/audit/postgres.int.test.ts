import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PG_URL, pgAvailable } from '@/tests/support/postgres';
import { createPostgresAuditStore } from './postgres';
import { newEntry, resultsOf } from './record';
import { ZAuditQuery } from './types';

// The shared audit trail of several console instances: two stores on one database (each in
// this test's own schema) see each other's entries, creating the tables concurrently.

const schema = `audit_${randomBytes(4).toString('hex')}`;
const url = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
const ok = await pgAvailable();
const who = { user: 'olga', role: 'operator', via: 'proxy' };

beforeAll(async () => {
  if (!ok) return;
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  await c.query(`CREATE SCHEMA ${schema}`);
  await c.end();
});
afterAll(async () => {
  if (!ok) return;
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  await c.query(`DROP SCHEMA ${schema} CASCADE`);
  await c.end();
});

describe.skipIf(!ok)('PostgreSQL audit store', () => {
  it('is shared by two console instances, with per-id outcomes, task history and paging', async () => {
    const a = createPostgresAuditStore(url);
    const b = createPostgresAuditStore(url);
    const e1 = newEntry({ action: 'revoke', broker: 'pg', who, input: { ids: ['x1', 'x2'] }, reason: 'stuck' });
    const e2 = newEntry({ action: 'enqueue', broker: 'pg', who, input: { task: 't', queue: 'emails' }, reason: null });
    await Promise.all([a.begin(e1), b.begin(e2)]);
    const r = resultsOf({ succeeded: [{ id: 'x1', outcome: 'ok', message: '' }], failed: [{ id: 'x2', outcome: 'running', message: 'running' }] });
    await a.finish(e1.id, { ...r, code: null, message: null, details: {}, finishedAt: new Date().toISOString() });
    await b.finish(e2.id, { outcome: 'done', results: [], code: null, message: null, details: {}, finishedAt: null, addIds: ['x9'] });

    const seenByB = await b.list(ZAuditQuery.parse({}));
    expect(seenByB.entries.map((e) => e.id).sort()).toEqual([e1.id, e2.id].sort());
    const hist = await a.list(ZAuditQuery.parse({ broker: 'pg', task: 'x2' }));
    expect(hist.entries).toHaveLength(1);
    expect(hist.entries[0]).toMatchObject({ reason: 'stuck', outcome: 'partial', results: [{ id: 'x2', outcome: 'running', message: 'running' }, { id: 'x1', outcome: 'ok', message: '' }] });
    expect((await a.list(ZAuditQuery.parse({ task: 'x9' }))).entries[0]).toMatchObject({ id: e2.id, ids: ['x9'], queue: 'emails' });
    const p1 = await a.list(ZAuditQuery.parse({ limit: 1 }));
    const p2 = await a.list(ZAuditQuery.parse({ limit: 1, cursor: p1.nextCursor }));
    expect([p1.entries[0]!.id, p2.entries[0]!.id].sort()).toEqual([e1.id, e2.id].sort());
    await Promise.all([a.close(), b.close()]);
  });
});
