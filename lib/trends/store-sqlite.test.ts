import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteTrendStore } from './store-sqlite';
import { trendStoreCases } from '@/tests/trends/store-cases';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trends-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('SQLite trend store (two instances on one state file)', () => {
  const file = path.join(dir, 'nested', 'state.sqlite3');
  trendStoreCases(
    async () => createSqliteTrendStore(file),
    () => `b-${randomUUID().slice(0, 8)}`,
  );
});

describe('SQLite trend store on a state file from before the lower-bound columns', () => {
  it('adds them and keeps the samples already there (read as exact)', async () => {
    const file = path.join(dir, 'old', 'state.sqlite3');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const db = new Database(file);
    db.exec(`CREATE TABLE console_trend_samples (broker TEXT NOT NULL, queue TEXT NOT NULL, at_ms INTEGER NOT NULL,
      depth INTEGER, oldest_s REAL, dead INTEGER, PRIMARY KEY (broker, queue, at_ms))`);
    db.prepare('INSERT INTO console_trend_samples VALUES (?, ?, ?, ?, ?, ?)').run('b', '', 60_000, 4, null, 1);
    db.close();
    const s = createSqliteTrendStore(file);
    try {
      await s.write([{ broker: 'b', queue: '', atMs: 120_000, depth: 1000, oldestSeconds: null, dead: 2, depthCapped: true }]);
      const got = await s.read({ broker: 'b', queue: '', fromMs: 60_000, bucketMs: 60_000, buckets: 2 });
      expect(got).toMatchObject({ depth: [4, 1000], dead: [1, 2], depthAtLeast: [false, true], deadAtLeast: [false, false] });
    } finally {
      await s.close();
    }
  });
});
