// The pause leases' table in the console's state store (created with the store's other tables,
// lib/bulk/store-open.ts): one row per (broker, queue).
export const LEASE_DDL = [
  `CREATE TABLE IF NOT EXISTS console_pause_leases (
    broker TEXT NOT NULL, queue TEXT NOT NULL, owner TEXT NOT NULL, started_at TEXT NOT NULL,
    deadline_ms BIGINT NOT NULL, paused_by_console INTEGER NOT NULL, detail TEXT NOT NULL,
    PRIMARY KEY (broker, queue))`,
];
