import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, describe } from 'vitest';
import { createSqliteTrendStore } from './store-sqlite';
import { trendStoreCases } from './store-cases';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trends-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('SQLite trend store (two instances on one state file)', () => {
  const file = path.join(dir, 'nested', 'state.sqlite3');
  trendStoreCases(
    async () => createSqliteTrendStore(file),
    () => `b-${randomUUID().slice(0, 8)}`,
  );
});
