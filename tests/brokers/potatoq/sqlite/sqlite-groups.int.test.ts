// The error groups' scope on a real potatoq SQLite file (made by `potatoq migrate`): a queue with
// more letters than the window (`searchWindow`) is grouped over its newest ones and the answer
// says how many of how many, up to SCOPE_COUNT_WINDOWS windows counted; a queue that fits says nothing.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedDb } from '@/tests/support/sqlite-db';
import { createSqliteAdapter } from '@/lib/brokers/potatoq/sqlite/adapter';

describe('sqlite adapter: what the error groups cover', () => {
  let file: string;
  const adapter = (searchWindow: number) =>
    createSqliteAdapter({ id: 'sq', name: 'SQLite test', url: `sqlite:///${file}`, readOnly: true, options: { searchWindow } });
  beforeAll(() => {
    file = migratedDb();
    const db = new Database(file);
    const put = db.prepare('INSERT INTO potatoq_dead (id, queue, task, reason, died_at, payload) VALUES (?, ?, ?, ?, ?, ?)');
    const now = Date.now() / 1000;
    db.transaction(() => {
      for (let i = 0; i < 25; i++) put.run(`g-${i}`, 'gq', 'x.t', `ValueError: order ${i} late`, now - i, '{}');
      for (let i = 0; i < 3; i++) put.run(`s-${i}`, 'small', 'x.t', 'KeyError: sku', now - i, '{}');
    })();
    db.close();
  });
  afterAll(() => fs.rmSync(path.dirname(file), { recursive: true, force: true }));

  it('groups the newest letters of a queue deeper than the window, and says how many of how many', async () => {
    const a = adapter(10);
    try {
      const { groups, scope } = await a.deadGroups({ queue: 'gq' });
      expect(groups.map((g) => [g.pattern, g.count, g.example.id])).toEqual([['ValueError: order <n> late', 10, 'g-0']]);
      expect(scope).toEqual({
        grouped: 10,
        complete: false,
        note: "Grouped the newest 10 of 25 dead letters (the searchWindow option): the 15 older ones are in no group's count.",
      });
      expect((await a.deadGroups({})).scope.note).toContain('Grouped the newest 10 of 28 dead letters');
      expect((await a.deadGroups({ queue: 'small' })).scope).toEqual({ grouped: 3, complete: true });
    } finally {
      await a.close();
    }
  });

  it('counts no further than SCOPE_COUNT_WINDOWS windows, and says "more than" past them', async () => {
    const a = adapter(2);
    try {
      expect((await a.deadGroups({ queue: 'gq' })).scope.note).toBe(
        "Grouped the newest 2 of more than 20 dead letters (the searchWindow option): the older ones are in no group's count.",
      );
    } finally {
      await a.close();
    }
  });

  it('says nothing when the queue holds exactly a window', async () => {
    const a = adapter(3);
    try {
      expect((await a.deadGroups({ queue: 'small' })).scope).toEqual({ grouped: 3, complete: true });
    } finally {
      await a.close();
    }
  });
});
