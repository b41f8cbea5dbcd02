import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, describe } from 'vitest';
import { openStateDbForTests } from '@/lib/state/sql';
import { deathStoreCases } from '@/tests/trends/death-cases';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deaths-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('recorded deaths on a SQLite state file (two instances on one file)', () => {
  const file = path.join(dir, 'state.sqlite3');
  deathStoreCases(
    () => openStateDbForTests(file),
    () => `b-${randomUUID().slice(0, 8)}`,
  );
});
