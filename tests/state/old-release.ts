// The console's state store as the release before the migration ledger made it (its DDL copied
// here as it was, not imported: the code under test must not define its own starting point), with
// one row in each table.

export type Exec = (sql: string) => Promise<unknown>;

export async function makeOldReleaseStore(exec: Exec, d: 'sqlite' | 'postgres'): Promise<void> {
  const seq = d === 'sqlite' ? 'INTEGER PRIMARY KEY AUTOINCREMENT' : 'BIGSERIAL PRIMARY KEY';
  const big = d === 'sqlite' ? 'INTEGER' : 'BIGINT';
  const real = d === 'sqlite' ? 'REAL' : 'DOUBLE PRECISION';
  const ddl = [
    `CREATE TABLE console_audit (seq ${seq}, id TEXT NOT NULL UNIQUE, at TEXT NOT NULL, finished_at TEXT, who TEXT NOT NULL,
      role TEXT, via TEXT, action TEXT NOT NULL, broker TEXT NOT NULL, queue TEXT, ids TEXT NOT NULL, ids_total INTEGER NOT NULL,
      filter TEXT, count INTEGER, reason TEXT, outcome TEXT NOT NULL, code TEXT, message TEXT, results TEXT NOT NULL,
      details TEXT NOT NULL, subject TEXT, issuer TEXT)`,
    `CREATE TABLE console_audit_ids (audit_seq ${big} NOT NULL, broker TEXT NOT NULL, task_id TEXT NOT NULL)`,
    'CREATE INDEX console_audit_ids_task ON console_audit_ids (broker, task_id, audit_seq)',
    'CREATE INDEX console_audit_broker ON console_audit (broker, seq)',
    'CREATE TABLE console_oidc_users (name TEXT PRIMARY KEY, issuer TEXT NOT NULL, subject TEXT NOT NULL, bound_at TEXT NOT NULL)',
    `CREATE TABLE console_bulk_jobs (id TEXT PRIMARY KEY, broker TEXT NOT NULL, created_at TEXT NOT NULL, state TEXT NOT NULL,
      owner TEXT, heartbeat_ms BIGINT NOT NULL, control TEXT, finished_at TEXT, row TEXT NOT NULL, ids TEXT NOT NULL)`,
    'CREATE INDEX console_bulk_jobs_broker ON console_bulk_jobs (broker, created_at)',
    'CREATE TABLE console_bulk_outcomes (job_id TEXT NOT NULL, n INTEGER NOT NULL, id TEXT NOT NULL, outcome TEXT NOT NULL, message TEXT NOT NULL)',
    'CREATE INDEX console_bulk_outcomes_job ON console_bulk_outcomes (job_id, n)',
    `CREATE TABLE console_move_journal (source TEXT NOT NULL, id TEXT NOT NULL, target TEXT NOT NULL, move_id TEXT NOT NULL,
      at TEXT NOT NULL, who TEXT NOT NULL, audit_id TEXT, until_ms BIGINT NOT NULL, note TEXT, PRIMARY KEY (source, id))`,
    `CREATE TABLE console_pause_leases (broker TEXT NOT NULL, queue TEXT NOT NULL, owner TEXT NOT NULL, started_at TEXT NOT NULL,
      deadline_ms BIGINT NOT NULL, paused_by_console INTEGER NOT NULL, detail TEXT NOT NULL, PRIMARY KEY (broker, queue))`,
    `CREATE TABLE console_trend_samples (broker TEXT NOT NULL, queue TEXT NOT NULL, at_ms ${big} NOT NULL, depth ${big},
      oldest_s ${real}, dead ${big}, depth_capped ${big}, dead_capped ${big}, PRIMARY KEY (broker, queue, at_ms))`,
    'CREATE INDEX console_trend_samples_at ON console_trend_samples (at_ms)',
    `CREATE TABLE console_leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_ms ${big} NOT NULL)`,
  ];
  const rows = [
    `INSERT INTO console_audit (id, at, who, action, broker, ids, ids_total, outcome, results, details)
      VALUES ('old-entry', '2026-01-01T00:00:00.000Z', 'vic', 'revoke', 'b', '["t1"]', 1, 'done', '[]', '{}')`,
    `INSERT INTO console_audit_ids (audit_seq, broker, task_id) VALUES (1, 'b', 't1')`,
    `INSERT INTO console_bulk_jobs (id, broker, created_at, state, owner, heartbeat_ms, control, finished_at, row, ids)
      VALUES ('job-1', 'b', '2026-01-01T00:00:00.000Z', 'paused', NULL, 0, NULL, NULL, '${JSON.stringify({ id: 'job-1', brokerId: 'b', done: 3, total: 5 })}', '["a","b","c","d","e"]')`,
    `INSERT INTO console_move_journal (source, id, target, move_id, at, who, audit_id, until_ms, note)
      VALUES ('b', 'letter-1', 'c', 'm-1', '2026-01-01T00:00:00.000Z', 'vic', NULL, 0, 'crashed after the send')`,
    `INSERT INTO console_pause_leases (broker, queue, owner, started_at, deadline_ms, paused_by_console, detail)
      VALUES ('qf', 'mail', 'old-host:1:abc', '2026-01-01T00:00:00.000Z', 1000, 1, '{"letter":"7"}')`,
    `INSERT INTO console_trend_samples (broker, queue, at_ms, depth, oldest_s, dead, depth_capped, dead_capped)
      VALUES ('b', '', 60000, 42, 1.5, 3, 0, 0)`,
    `INSERT INTO console_leases (name, holder, expires_ms) VALUES ('trend-sampler', 'old-host:1:abc', 1000)`,
  ];
  for (const s of [...ddl, ...rows]) await exec(s);
}
