// Temporary SQLite brokers for tests: created by the real `potatoq migrate`, never our DDL.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSqliteAdapter } from '@/lib/brokers/potatoq/sqlite/adapter';
import { POTATOQ, ROOT } from './potatoq-seeder';

let venvReady = false;

/** Creates .venv with the pinned potatoq once per test process. */
export function ensureVenv(): void {
  if (venvReady) return;
  execFileSync('bash', [path.join(ROOT, 'scripts/ensure-venv.sh')], { stdio: 'inherit' });
  venvReady = true;
}

export function migratedDb(): string {
  ensureVenv();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-sqlite-'));
  const file = path.join(dir, 'broker.sqlite3');
  execFileSync(POTATOQ, ['-b', `sqlite:///${file}`, 'migrate'], { cwd: dir, env: { ...process.env, POTATOQ_NO_EMOJI: '1' } });
  return file;
}

export const adapterFor = (file: string, readOnly = false) =>
  createSqliteAdapter({ id: 'sq', name: 'SQLite test', url: `sqlite:///${file}`, readOnly, options: {} });
