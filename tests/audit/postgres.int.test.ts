import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgAvailable, searchPathUrl, sqlAdmin } from '@/tests/support/postgres';
import { createPostgresAuditStore } from '@/lib/audit/postgres';
import { newEntry, resultsOf } from '@/lib/audit/record';
import { ZAuditQuery } from '@/lib/audit/types';

// The shared audit trail of several console instances: two stores on one database (each in
// this test's own schema) see each other's entries, creating the tables concurrently.

const schema = `audit_${randomBytes(4).toString('hex')}`;
const url = searchPathUrl(schema);
const ok = await pgAvailable();
const who = { user: 'olga', role: 'operator', via: 'proxy' };

beforeAll(async () => {
  if (ok) await sqlAdmin(`CREATE SCHEMA ${schema}`);
});
afterAll(async () => {
  if (ok) await sqlAdmin(`DROP SCHEMA ${schema} CASCADE`);
});

describe.skipIf(!ok)('PostgreSQL audit store', () => {
  it('is shared by two console instances, with per-id outcomes, task history and paging', async () => {
    const a = createPostgresAuditStore(url);
    const b = createPostgresAuditStore(url);
    const e1 = newEntry({ action: 'revoke', broker: 'pg', who, input: { ids: ['x1', 'x2'] }, reason: 'stuck' });
    const e2 = newEntry({ action: 'enqueue', broker: 'pg', who, input: { task: 't', queue: 'emails' }, reason: null });
    await Promise.all([a.begin(e1), b.begin(e2)]);
    const r = resultsOf({
      succeeded: [{ id: 'x1', outcome: 'ok', message: '' }],
      failed: [{ id: 'x2', outcome: 'running', message: 'running' }],
    });
    await a.finish(e1.id, { ...r, code: null, message: null, details: {}, finishedAt: new Date().toISOString() });
    await b.finish(e2.id, { outcome: 'done', results: [], code: null, message: null, details: {}, finishedAt: null, addIds: ['x9'] });

    const seenByB = await b.list(ZAuditQuery.parse({}));
    expect(seenByB.entries.map((e) => e.id).sort()).toEqual([e1.id, e2.id].sort());
    const hist = await a.list(ZAuditQuery.parse({ broker: 'pg', task: 'x2' }));
    expect(hist.entries).toHaveLength(1);
    expect(hist.entries[0]).toMatchObject({
      reason: 'stuck',
      outcome: 'partial',
      results: [
        { id: 'x2', outcome: 'running', message: 'running' },
        { id: 'x1', outcome: 'ok', message: '' },
      ],
    });
    expect((await a.list(ZAuditQuery.parse({ task: 'x9' }))).entries[0]).toMatchObject({ id: e2.id, ids: ['x9'], queue: 'emails' });
    const p1 = await a.list(ZAuditQuery.parse({ limit: 1 }));
    const p2 = await a.list(ZAuditQuery.parse({ limit: 1, cursor: p1.nextCursor }));
    expect([p1.entries[0]!.id, p2.entries[0]!.id].sort()).toEqual([e1.id, e2.id].sort());
    await Promise.all([a.close(), b.close()]);
  });
});

// Two consoles starting at the same moment while a third writes entries: the schema step must
// neither deadlock with the writer nor lose an entry. Once on a fresh schema (tables created
// under the writer), once with tables that exist but miss an index (as after an upgrade that
// adds one: DDL runs while the writer holds its table locks). Repeated, since it is a race.
describe.skipIf(!ok)('PostgreSQL audit store schema step under concurrent writers', () => {
  const rounds = 6;
  async function race(s: string, existing: boolean) {
    const u = searchPathUrl(s);
    if (existing) {
      const first = createPostgresAuditStore(u);
      await first.list(ZAuditQuery.parse({ limit: 1 }));
      await first.close();
      await sqlAdmin(`DROP INDEX ${s}.console_audit_broker`);
      // As after an upgrade whose new step adds it: the step is not in the ledger yet.
      await sqlAdmin(`DELETE FROM ${s}.console_schema_steps WHERE id = 'audit-1'`);
    }
    const writer = createPostgresAuditStore(u);
    const written: string[] = [];
    let stop = false;
    const writing = (async () => {
      while ((!stop || written.length < 20) && written.length < 150) {
        const e = newEntry({
          action: 'revoke',
          broker: 'pg',
          who,
          input: { ids: [`w${written.length}`, `v${written.length}`] },
          reason: 'race',
        });
        await writer.begin(e);
        written.push(e.id);
      }
    })();
    await new Promise((r) => setTimeout(r, 5));
    const starters = [createPostgresAuditStore(u), createPostgresAuditStore(u)];
    const started = await Promise.allSettled(
      starters.map((st, i) => st.begin(newEntry({ action: 'enqueue', broker: 'pg', who, input: { task: `start${i}` }, reason: null }))),
    );
    stop = true;
    await writing;
    expect(started.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
    const all = await writer.list(ZAuditQuery.parse({ limit: 200 }));
    expect(
      all.entries
        .filter((e) => e.action === 'revoke')
        .map((e) => e.id)
        .sort(),
    ).toEqual([...written].sort());
    expect(all.entries.filter((e) => e.action === 'enqueue')).toHaveLength(2);
    await Promise.all([writer.close(), ...starters.map((st) => st.close())]);
  }

  for (const existing of [false, true]) {
    it(`never deadlocks or loses an entry (${existing ? 'tables exist, an index is missing' : 'fresh schema'}, ${rounds} rounds)`, async () => {
      for (let round = 0; round < rounds; round++) {
        const s = `audit_race_${randomBytes(4).toString('hex')}`;
        await sqlAdmin(`CREATE SCHEMA ${s}`);
        try {
          await race(s, existing);
        } finally {
          await sqlAdmin(`DROP SCHEMA ${s} CASCADE`);
        }
      }
    });
  }
});

describe.skipIf(!ok)('PostgreSQL audit store: OIDC identities', () => {
  it('adds the identity columns to an older trail, records them, and binds a name to its first identity', async () => {
    const s = `audit_old_${randomBytes(4).toString('hex')}`;
    await sqlAdmin(`CREATE SCHEMA ${s}`);
    try {
      // The trail as the previous version made it: no subject/issuer, no console_oidc_users.
      await sqlAdmin(`CREATE TABLE ${s}.console_audit (seq BIGSERIAL PRIMARY KEY, id TEXT NOT NULL UNIQUE, at TEXT NOT NULL, finished_at TEXT,
        who TEXT NOT NULL, role TEXT, via TEXT, action TEXT NOT NULL, broker TEXT NOT NULL, queue TEXT, ids TEXT NOT NULL, ids_total INTEGER NOT NULL,
        filter TEXT, count INTEGER, reason TEXT, outcome TEXT NOT NULL, code TEXT, message TEXT, results TEXT NOT NULL, details TEXT NOT NULL)`);
      await sqlAdmin(`CREATE TABLE ${s}.console_audit_ids (audit_seq BIGINT NOT NULL, broker TEXT NOT NULL, task_id TEXT NOT NULL)`);
      await sqlAdmin(`CREATE INDEX console_audit_ids_task ON ${s}.console_audit_ids (broker, task_id, audit_seq)`);
      await sqlAdmin(`CREATE INDEX console_audit_broker ON ${s}.console_audit (broker, seq)`);
      await sqlAdmin(
        `INSERT INTO ${s}.console_audit (id, at, who, action, broker, ids, ids_total, outcome, results, details) VALUES ('old', '2026-01-01T00:00:00Z', 'vic', 'enqueue', 'b', '[]', 0, 'done', '[]', '{}')`,
      );
      const store = createPostgresAuditStore(searchPathUrl(s));
      try {
        const oidc = { user: 'olga', role: 'operator', via: 'oidc', sub: 's-1', iss: 'https://idp/' };
        await store.begin(newEntry({ action: 'enqueue', broker: 'b', who: oidc, input: {}, reason: null }));
        const { entries } = await store.list(ZAuditQuery.parse({}));
        expect(entries.map((e) => [e.who, e.subject, e.issuer])).toEqual([
          ['olga', 's-1', 'https://idp/'],
          ['vic', null, null],
        ]);
        const first = { name: 'olga', issuer: 'https://idp/', subject: 's-1' };
        expect(await store.bindIdentity!(first)).toEqual(first);
        expect(await store.bindIdentity!({ name: 'OLGA', issuer: 'https://idp/', subject: 's-2' })).toMatchObject({ subject: 's-1' });
      } finally {
        await store.close();
      }
    } finally {
      await sqlAdmin(`DROP SCHEMA ${s} CASCADE`);
    }
  });
});
