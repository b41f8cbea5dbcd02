import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, describe } from 'vitest';
import { openStateDbForTests } from '@/lib/state/sql';
import { markCases } from '@/tests/trends/marks-cases';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'marks-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('campaign marks on a SQLite state file', () => {
  markCases(
    () => openStateDbForTests(path.join(dir, 'state.sqlite3')),
    () => `b-${randomUUID().slice(0, 8)}`,
  );
});
