import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { newEntry, resultsOf } from './record';
import { createSqliteAuditStore } from './sqlite';
import { stateLocation } from './store';
import { ZAuditQuery } from './types';

const dirs: string[] = [];
const tempFile = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-'));
  dirs.push(d);
  return path.join(d, 'nested', 'state.sqlite3');
};
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

const who = { user: 'olga', role: 'operator', via: 'session' };
const q = (over: Record<string, unknown> = {}) => ZAuditQuery.parse(over);

describe('SQLite audit store', () => {
  it('keeps entries across reopening, newest first, with per-id outcomes and task history', async () => {
    const file = tempFile();
    let store = createSqliteAuditStore(file);
    const a = newEntry({ action: 'discard', broker: 'b1', who, input: { ids: ['t1', 't2'], reason: 'x' }, reason: 'bad data' });
    await store.begin(a);
    const { results, outcome } = resultsOf({
      succeeded: [{ id: 't1', outcome: 'ok', message: '' }],
      failed: [{ id: 't2', outcome: 'missing', message: 'gone' }],
    });
    await store.finish(a.id, { outcome, results, code: null, message: null, details: {}, finishedAt: new Date().toISOString() });
    const b = newEntry({ action: 'enqueue', broker: 'b2', who, input: { task: 'x', queue: 'emails' }, reason: null });
    await store.begin(b);
    await store.finish(b.id, { outcome: 'done', results: [], code: null, message: null, details: {}, finishedAt: null, addIds: ['t9'] });
    await store.close();

    store = createSqliteAuditStore(file);
    const all = await store.list(q());
    expect(all.entries.map((e) => e.action)).toEqual(['enqueue', 'discard']);
    expect(all.entries[1]).toMatchObject({
      who: 'olga',
      reason: 'bad data',
      outcome: 'partial',
      ids: ['t1', 't2'],
      results: [
        { id: 't2', outcome: 'missing', message: 'gone' },
        { id: 't1', outcome: 'ok', message: '' },
      ],
    });
    expect(all.entries[0]).toMatchObject({ queue: 'emails', ids: ['t9'] });
    expect((await store.list(q({ task: 't2', broker: 'b1' }))).entries.map((e) => e.id)).toEqual([a.id]);
    expect((await store.list(q({ task: 't9' }))).entries.map((e) => e.id)).toEqual([b.id]);
    expect((await store.list(q({ task: 't2', broker: 'b2' }))).entries).toEqual([]);
    expect((await store.list(q({ who: 'nobody' }))).entries).toEqual([]);
    await store.close();
  });

  it('pages back with a cursor', async () => {
    const store = createSqliteAuditStore(tempFile());
    for (let i = 0; i < 5; i++)
      await store.begin(newEntry({ action: 'replay', broker: 'b', who, input: { ids: [`id${i}`] }, reason: null }));
    const p1 = await store.list(q({ limit: 2 }));
    const p2 = await store.list(q({ limit: 2, cursor: p1.nextCursor }));
    const p3 = await store.list(q({ limit: 2, cursor: p2.nextCursor }));
    expect([...p1.entries, ...p2.entries, ...p3.entries].map((e) => e.ids[0])).toEqual(['id4', 'id3', 'id2', 'id1', 'id0']);
    expect(p3.nextCursor).toBeNull();
    await store.close();
  });

  it('records a bulk job’s filter and snapshot count', () => {
    const e = newEntry({
      action: 'discard',
      broker: 'b',
      who,
      input: { action: 'discard', filter: { queue: 'q', task: 't' } },
      reason: 'r',
      extra: { count: 1200 },
    });
    expect(e).toMatchObject({ filter: { queue: 'q', task: 't' }, count: 1200, queue: 'q', ids: [] });
  });
});

describe('stateLocation', () => {
  it('defaults to .data/console-state.sqlite3 and takes a path or a PostgreSQL URL', () => {
    expect(stateLocation({ VITEST: 'true' }).where).toBe(':memory:');
    expect(stateLocation({}).where).toMatch(/\.data\/console-state\.sqlite3$/);
    expect(stateLocation({ POTATOQ_CONSOLE_STATE: '/tmp/x.db' })).toEqual({ kind: 'sqlite', where: '/tmp/x.db' });
    expect(stateLocation({ POTATOQ_CONSOLE_STATE: 'postgresql://u@h/db' })).toEqual({ kind: 'postgres', where: 'postgresql://u@h/db' });
    expect(() => stateLocation({ POTATOQ_CONSOLE_STATE: 'redis://h' })).toThrow(/POTATOQ_CONSOLE_STATE/);
  });
});

describe('SQLite audit store: OIDC identities', () => {
  it('records the subject and issuer of an OIDC user in each entry', async () => {
    const store = createSqliteAuditStore(tempFile());
    const e = newEntry({
      action: 'enqueue',
      broker: 'b',
      who: { ...who, via: 'oidc', sub: 's-1', iss: 'https://idp/' },
      input: {},
      reason: null,
    });
    await store.begin(e);
    expect((await store.list(q())).entries[0]).toMatchObject({ who: 'olga', subject: 's-1', issuer: 'https://idp/' });
    await store.close();
  });

  it('binds a name to the first identity that signs in with it, whatever its case', async () => {
    const store = createSqliteAuditStore(tempFile());
    const first = { name: 'olga', issuer: 'https://idp/', subject: 's-1' };
    expect(await store.bindIdentity!(first)).toEqual(first);
    expect(await store.bindIdentity!(first)).toEqual(first);
    expect(await store.bindIdentity!({ name: 'Olga', issuer: 'https://idp/', subject: 's-2' })).toMatchObject({ subject: 's-1' });
    expect(await store.bindIdentity!({ name: 'olga', issuer: 'https://other/', subject: 's-1' })).toMatchObject({ issuer: 'https://idp/' });
    await store.close();
  });

  it('adds the identity columns to a trail written by an older version, keeping its entries', async () => {
    const file = tempFile();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const old = new Database(file);
    old.exec(`CREATE TABLE console_audit (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, at TEXT NOT NULL, finished_at TEXT,
      who TEXT NOT NULL, role TEXT, via TEXT, action TEXT NOT NULL, broker TEXT NOT NULL, queue TEXT, ids TEXT NOT NULL, ids_total INTEGER NOT NULL,
      filter TEXT, count INTEGER, reason TEXT, outcome TEXT NOT NULL, code TEXT, message TEXT, results TEXT NOT NULL, details TEXT NOT NULL)`);
    old
      .prepare(
        `INSERT INTO console_audit (id, at, who, action, broker, ids, ids_total, outcome, results, details) VALUES ('old', '2026-01-01T00:00:00Z', 'vic', 'enqueue', 'b', '[]', 0, 'done', '[]', '{}')`,
      )
      .run();
    old.close();
    const store = createSqliteAuditStore(file);
    await store.begin(
      newEntry({ action: 'enqueue', broker: 'b', who: { ...who, via: 'oidc', sub: 's-9', iss: 'https://idp/' }, input: {}, reason: null }),
    );
    const { entries } = await store.list(q());
    expect(entries.map((e) => [e.who, e.subject])).toEqual([
      ['olga', 's-9'],
      ['vic', null],
    ]);
    await store.close();
  });
});
