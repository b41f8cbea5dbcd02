import 'server-only';
import { numbered, readSqlChord } from '../family-sql';
import { registeredNames } from '../mappers';
import { REGISTERED_PREFIX, revokedRecord, type ResultBackend } from '../results';
import { pgNames, normalizeUrl } from './names';
import { createPgDb } from './pool';
import { listResults as pgListResults, listWorkers as pgListWorkers } from './reads-misc';
import { readResult as pgReadResult } from './reads-tasks';

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
    chord: (groupId) => db.read((sql) => readSqlChord({ all: (text, params) => sql(numbered(text), params), tables: names }, groupId)),
    registeredNames: () =>
      db.read(async (sql) => {
        const rows = await sql<{ payload: string }>(`SELECT payload FROM ${names.results} WHERE starts_with(id, $1)`, [REGISTERED_PREFIX]);
        return rows.flatMap((r) => registeredNames(r.payload));
      }),
    close: () => db.close(),
  };
}
