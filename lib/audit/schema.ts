import 'server-only';

// The audit trail's tables, the same in the SQLite state file and in PostgreSQL but for the
// key types. JSON columns are text so both stores map rows alike.
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
  details TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS console_audit_ids (
  audit_seq ${d.bigint} NOT NULL,
  broker TEXT NOT NULL,
  task_id TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS console_audit_ids_task ON console_audit_ids (broker, task_id, audit_seq);
CREATE INDEX IF NOT EXISTS console_audit_broker ON console_audit (broker, seq);
`;
}
