// A PostgreSQL database of a test's (or a benchmark's) own on the shared server, so its
// transactions can be counted (pg_stat_database.xact_commit + xact_rollback): every round trip
// a broker client makes outside an explicit transaction is one. Nothing else uses the database,
// so the count is the console's alone while other suites use the server, but for autovacuum:
// its worker visits a database with activity once a minute and adds a few (2–4) of its own.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PG_URL } from './postgres';

export interface CountedDatabase {
  name: string;
  url: string;
  /** Transactions so far, read once no backend is left on the database (a backend reports its
   *  counts as it exits, and a closed client's backend may take a while to exit on a loaded
   *  machine), then until two reads `gapMs` apart agree. An idle backend reports at most 10 s
   *  late (PostgreSQL 15's PGSTAT_IDLE_INTERVAL): close the clients first for an exact count.
   *  `clientsOpen`: some stay connected (a running console); don't wait for them to exit. */
  settledTransactions(gapMs?: number, opts?: { clientsOpen?: boolean }): Promise<number>;
  drop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `base` with its database name replaced. */
export function urlWithDatabase(base: string, db: string): string {
  const u = new URL(base);
  u.pathname = `/${db}`;
  return u.toString();
}

export async function countedDatabase(base = PG_URL, prefix = 'pqt_count'): Promise<CountedDatabase> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const read = async () => {
    await admin.query('SELECT pg_stat_clear_snapshot()');
    const r = await admin.query<{ n: string }>('SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = $1', [name]);
    return Number(r.rows[0]?.n ?? 0);
  };
  return {
    name,
    url: urlWithDatabase(base, name),
    async settledTransactions(gapMs = 500, { clientsOpen = false } = {}) {
      for (let i = 0; !clientsOpen && i < 100; i++) {
        const r = await admin.query<{ n: string }>('SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1', [name]);
        if (Number(r.rows[0]?.n ?? 0) === 0) break;
        await sleep(100);
      }
      let last = await read();
      for (let i = 0; i < 40; i++) {
        await sleep(gapMs);
        const now = await read();
        if (now === last) return now;
        last = now;
      }
      return last;
    },
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
      await admin.end().catch(() => undefined);
    },
  };
}
