import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createTestDb, serverAvailable, testDbOf, type Dialect, type TestDb } from '../tests/sdj/databases';
import { createSdjSchema } from '../tests/brokers/sdj/schema-fixture';

// The Simple Durable Jobs brokers of the e2e console: one database on PostgreSQL 15 and one on
// MySQL 9, each holding the library's v4.5.1 schema as docs/systems/simple-durable-jobs.md
// records it (the library itself cannot be built here: the module proxy refuses it). Names are
// chosen once per run by the config (main process) and kept in the run's dir; global setup
// creates the databases, the spec writes rows as the library writes them (tests/brokers/sdj/rows.ts),
// and teardown drops them.

export interface SdjE2e {
  id: string;
  dialect: Dialect;
  /** The database's name on its server. */
  db: string;
  label: string;
}

export interface SdjE2eStatus {
  /** Per broker id: null when its database is ready, otherwise why not. */
  [id: string]: string | null;
}

const file = (dir: string) => path.join(dir, 'sdj.json');
const statusFile = (dir: string) => path.join(dir, 'sdj-status.json');

/** Chooses the run's database names (config, main process, once per run). */
export function prepareSdjBrokers(dir: string): SdjE2e[] {
  const tag = randomBytes(4).toString('hex');
  const x: SdjE2e[] = [
    { id: 'sdj-pg', dialect: 'postgres', db: `e2e_sdj_${tag}`, label: 'PostgreSQL' },
    { id: 'sdj-my', dialect: 'mysql', db: `e2e_sdj_${tag}`, label: 'MySQL' },
  ];
  fs.writeFileSync(file(dir), JSON.stringify(x));
  return x;
}

export const sdjBrokers = (dir: string): SdjE2e[] =>
  fs.existsSync(file(dir)) ? (JSON.parse(fs.readFileSync(file(dir), 'utf8')) as SdjE2e[]) : [];

/** The console's broker entries; a database whose server has no URL here is left out. */
export function sdjEntries(dir: string): Record<string, unknown>[] {
  return sdjBrokers(dir).flatMap((b) => {
    try {
      return [{ id: b.id, kind: 'sdj', name: `Billing (SDJ on ${b.label})`, url: testDbOf(b.dialect, b.db).url }];
    } catch {
      return [];
    }
  });
}

/** Global setup: each database with the library's schema, or why it could not be made. */
export async function setupSdjBrokers(dir: string): Promise<void> {
  const status: SdjE2eStatus = {};
  for (const b of sdjBrokers(dir)) {
    try {
      if (!(await serverAvailable(b.dialect))) {
        status[b.id] = `${b.label} is not available`;
        continue;
      }
      const db = await createTestDb(b.dialect, b.db);
      try {
        await createSdjSchema(db, 'verified');
      } finally {
        await db.close();
      }
      status[b.id] = null;
    } catch (e) {
      status[b.id] = (e as Error).message.trim().split('\n')[0] ?? 'setup failed';
    }
  }
  fs.writeFileSync(statusFile(dir), JSON.stringify(status));
}

export function sdjStatus(dir: string, id: string): string | null {
  const f = statusFile(dir);
  if (!fs.existsSync(f)) return 'global setup did not run';
  const s = JSON.parse(fs.readFileSync(f, 'utf8')) as SdjE2eStatus;
  return id in s ? s[id]! : 'not configured in this run';
}

/** The run's database of broker `id`, for a spec's rows and checks. */
export function sdjDb(dir: string, id: string): TestDb {
  const b = sdjBrokers(dir).find((x) => x.id === id);
  if (!b) throw new Error(`no SDJ e2e broker ${id}`);
  return testDbOf(b.dialect, b.db);
}

/** Teardown: drops the run's databases (a missing one is fine). */
export async function dropSdjBrokers(dir: string): Promise<void> {
  for (const b of sdjBrokers(dir)) {
    if (sdjStatus(dir, b.id) !== null) continue;
    await sdjDb(dir, b.id)
      .drop()
      .catch((e: unknown) => console.warn(`e2e teardown (SDJ ${b.label}): ${(e as Error).message}`));
  }
}
