import 'server-only';

// The audit trail's tables, the same in the SQLite state file and in PostgreSQL but for the
// key types. JSON columns are text so both stores map rows alike. A column added after the
// first release is also in ADDED_COLUMNS: each store adds it to a trail made by an older
// version (SQLite: where PRAGMA table_info lacks it; PostgreSQL: ADD COLUMN IF NOT EXISTS).

/** Columns of console_audit newer than the table: `subject` and `issuer` of an OIDC user. */
export const ADDED_COLUMNS: ReadonlyArray<readonly [name: string, type: string]> = [
  ['subject', 'TEXT'],
  ['issuer', 'TEXT'],
];

export function auditSchema(d: { seq: string; bigint: string }): string {
  return `
CREATE TABLE IF NOT EXISTS console_audit (
  seq ${d.seq},
  id TEXT NOT NULL UNIQUE,
  at TEXT NOT NULL,
  finished_at TEXT,
  who TEXT NOT NULL,
  role TEXT,
  via TEXT,
  action TEXT NOT NULL,
  broker TEXT NOT NULL,
  queue TEXT,
  ids TEXT NOT NULL,
  ids_total INTEGER NOT NULL,
  filter TEXT,
  count INTEGER,
  reason TEXT,
  outcome TEXT NOT NULL,
  code TEXT,
  message TEXT,
  results TEXT NOT NULL,
  details TEXT NOT NULL,
  subject TEXT,
  issuer TEXT
);
CREATE TABLE IF NOT EXISTS console_audit_ids (
  audit_seq ${d.bigint} NOT NULL,
  broker TEXT NOT NULL,
  task_id TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS console_audit_ids_task ON console_audit_ids (broker, task_id, audit_seq);
CREATE INDEX IF NOT EXISTS console_audit_broker ON console_audit (broker, seq);
CREATE TABLE IF NOT EXISTS console_oidc_users (
  name TEXT PRIMARY KEY,
  issuer TEXT NOT NULL,
  subject TEXT NOT NULL,
  bound_at TEXT NOT NULL
);
`;
}

/** The key a user name is bound under: look-alike spellings (case, compatibility forms) are one name. */
export const bindingKey = (name: string) => name.normalize('NFKC').toLowerCase();
