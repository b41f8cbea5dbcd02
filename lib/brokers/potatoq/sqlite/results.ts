import 'server-only';
import Database from 'better-sqlite3';
import { ConsoleError } from '@/lib/brokers/errors';
import { readSqlChord } from '../family-sql';
import { mapResult, registeredNames } from '../mappers';
import { REGISTERED_PREFIX, revokedRecord, type ResultBackend } from '../results';
import { listResults as liteListResults, listWorkers as liteListWorkers } from './reads-misc';
import { pathFromUrl } from './url';
import { STORE_RESULT } from './writes-revoke';

const SQLITE_CHORDS = { chordParts: 'potatoq_chord_parts', chords: 'potatoq_chords' };

/** potatoq's SQLite result backend (`potatoq_results`, `potatoq_workers` in the file). */
export function createSqliteResults(url: string, busyTimeoutMs: number): ResultBackend {
  let db: Database.Database | null = null;
  const open = () => {
    if (db) return db;
    const file = pathFromUrl(url);
    try {
      db = new Database(file, { fileMustExist: true, timeout: busyTimeoutMs });
    } catch {
      throw new ConsoleError(
        'BrokerUnavailable',
        'the SQLite result backend file does not exist or cannot be opened (start a worker with result_backend set)',
      );
    }
    return db;
  };
  const run = <T>(fn: (d: Database.Database) => T): Promise<T> => {
    try {
      return Promise.resolve(fn(open()));
    } catch (e) {
      if (e instanceof ConsoleError) return Promise.reject(e);
      return Promise.reject(
        new ConsoleError('BrokerUnavailable', `the SQLite result backend failed: ${e instanceof Error ? e.message : String(e)}`),
      );
    }
  };
  return {
    kind: 'sqlite',
    getResult: (id) =>
      run((d) => {
        const r = d.prepare('SELECT state, payload, expires_at FROM potatoq_results WHERE id = ?').get(id) as
          { state: string; payload: string; expires_at: number | null } | undefined;
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
    chord: (groupId) =>
      readSqlChord(
        { all: (sql, params) => run((d) => d.prepare(sql).all(...params) as Record<string, unknown>[]), tables: SQLITE_CHORDS },
        groupId,
      ),
    registeredNames: () =>
      run((d) => {
        const rows = d
          .prepare(`SELECT payload FROM potatoq_results WHERE substr(id, 1, ${REGISTERED_PREFIX.length}) = ?`)
          .pluck()
          .all(REGISTERED_PREFIX) as string[];
        return rows.flatMap(registeredNames);
      }),
    close: async () => {
      db?.close();
      db = null;
    },
  };
}
