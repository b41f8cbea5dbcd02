import 'server-only';
import Database from 'better-sqlite3';
import { ConsoleError } from '../errors';
import { pgNames, normalizeUrl } from '../postgres/names';
import { createPgDb } from '../postgres/pool';
import { listResults as pgListResults, listWorkers as pgListWorkers } from '../postgres/reads-misc';
import { readResult as pgReadResult } from '../postgres/reads-tasks';
import { mapResult } from '../mappers';
import { listResults as liteListResults, listWorkers as liteListWorkers } from '../sqlite/reads-misc';
import { pathFromUrl } from '../sqlite/url';
import { STORE_RESULT } from '../sqlite/writes-revoke';
import { registeredNames } from '../mappers';
import { REGISTERED_PREFIX, revokedRecord, type ResultBackend } from './results';


/** potatoq's SQLite result backend (`potatoq_results`, `potatoq_workers` in the file). */
export function createSqliteResults(url: string, busyTimeoutMs: number): ResultBackend {
  let db: Database.Database | null = null;
  const open = () => {
    if (db) return db;
    const file = pathFromUrl(url);
    try {
      db = new Database(file, { fileMustExist: true, timeout: busyTimeoutMs });
    } catch {
      throw new ConsoleError('BrokerUnavailable', 'the SQLite result backend file does not exist or cannot be opened (start a worker with result_backend set)');
    }
    return db;
  };
  const run = <T>(fn: (d: Database.Database) => T): Promise<T> => {
    try {
      return Promise.resolve(fn(open()));
    } catch (e) {
      if (e instanceof ConsoleError) return Promise.reject(e);
      return Promise.reject(new ConsoleError('BrokerUnavailable', `the SQLite result backend failed: ${e instanceof Error ? e.message : String(e)}`));
    }
  };
  return {
    kind: 'sqlite',
    getResult: (id) =>
      run((d) => {
        const r = d.prepare('SELECT state, payload, expires_at FROM potatoq_results WHERE id = ?').get(id) as
          | { state: string; payload: string; expires_at: number | null }
          | undefined;
        return r ? mapResult(id, r.state, r.payload, r.expires_at) : null;
      }),
    storeRevoked: (ids, expires) =>
      run((d) => {
        const store = d.prepare(STORE_RESULT);
        d.transaction(() => {
          const now = Date.now() / 1000;
          for (const id of ids) store.run(id, 'REVOKED', revokedRecord(id, now, null), now + expires);
        }).immediate();
      }),
    workers: (live) => run((d) => liteListWorkers(d, live)),
    listResults: (q) => run((d) => liteListResults(d, q)),
    registeredNames: () =>
      run((d) => {
        const rows = d.prepare(`SELECT payload FROM potatoq_results WHERE substr(id, 1, ${REGISTERED_PREFIX.length}) = ?`).pluck().all(REGISTERED_PREFIX) as string[];
        return rows.flatMap(registeredNames);
      }),
    close: async () => {
      db?.close();
      db = null;
    },
  };
}

/** potatoq's PostgreSQL result backend, through the PostgreSQL adapter's pools and reads. */
export function createPostgresResults(url: string, options: Record<string, unknown>, brokerId: string, timeoutMs: number): ResultBackend {
  const names = pgNames(options);
  const db = createPgDb(
    {
      url: normalizeUrl(url),
      brokerId: `${brokerId} results`,
      readPoolSize: 2,
      writePoolSize: 1,
      statementTimeoutMs: timeoutMs,
      writeStatementTimeoutMs: timeoutMs,
      lockTimeoutMs: Math.min(timeoutMs, 2000),
      connectTimeoutMs: timeoutMs,
    },
    names,
  );
  return {
    kind: 'postgres',
    getResult: (id) => db.read((sql) => pgReadResult(sql, names, id)),
    storeRevoked: (ids, expires) =>
      db.tx(async (sql) => {
        const now = Date.now() / 1000;
        await sql(
          `INSERT INTO ${names.results} (id, state, payload, expires_at)
           SELECT id, 'REVOKED', payload, now() + make_interval(secs => $3::float8) FROM unnest($1::text[], $2::text[]) AS r(id, payload)
           ON CONFLICT (id) DO UPDATE SET state = EXCLUDED.state, payload = EXCLUDED.payload, expires_at = EXCLUDED.expires_at`,
          [ids, ids.map((id) => revokedRecord(id, now, null)), expires],
        );
      }),
    workers: (live) => db.read((sql) => pgListWorkers(sql, names, live)),
    listResults: (q) => db.read((sql) => pgListResults(sql, names, q)),
    registeredNames: () =>
      db.read(async (sql) => {
        const rows = await sql<{ payload: string }>(`SELECT payload FROM ${names.results} WHERE starts_with(id, $1)`, [REGISTERED_PREFIX]);
        return rows.flatMap((r) => registeredNames(r.payload));
      }),
    close: () => db.close(),
  };
}
