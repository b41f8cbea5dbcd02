// potatoq 26.1a8's SQLite schema (brokers/sqlite.py `SCHEMA`), verbatim, so potatoq's own
// workers and CLI accept the demo file. A module rather than a .sql file so the production
// server needs no file next to its bundle. tests/roundtrip/demo-worker.int.test.ts compares
// the tables and indexes it creates with what `potatoq migrate` creates, so drift fails CI.
export const POTATOQ_SQLITE_SCHEMA = `CREATE TABLE IF NOT EXISTS potatoq_jobs (
    seq         INTEGER PRIMARY KEY AUTOINCREMENT,
    id          TEXT    NOT NULL UNIQUE,
    queue       TEXT    NOT NULL,
    task        TEXT    NOT NULL,
    state       INTEGER NOT NULL,
    priority    INTEGER NOT NULL DEFAULT 0,
    run_at      REAL    NOT NULL,
    deliveries  INTEGER NOT NULL DEFAULT 0,
    token       INTEGER,
    worker      TEXT,
    pid         INTEGER,
    claimed_at  REAL,
    created_at  REAL    NOT NULL,
    payload     TEXT    NOT NULL
);
CREATE INDEX IF NOT EXISTS potatoq_jobs_ready ON potatoq_jobs (queue, priority DESC, seq) WHERE state = 1;
CREATE INDEX IF NOT EXISTS potatoq_jobs_scheduled ON potatoq_jobs (run_at) WHERE state = 0;
CREATE INDEX IF NOT EXISTS potatoq_jobs_running ON potatoq_jobs (worker, pid) WHERE state = 2;
CREATE TABLE IF NOT EXISTS potatoq_results (
    id          TEXT PRIMARY KEY,
    state       TEXT NOT NULL,
    payload     TEXT NOT NULL,
    expires_at  REAL
);
CREATE INDEX IF NOT EXISTS potatoq_results_expires ON potatoq_results (expires_at);
CREATE TABLE IF NOT EXISTS potatoq_dead (
    id          TEXT PRIMARY KEY,
    queue       TEXT NOT NULL,
    task        TEXT NOT NULL,
    reason      TEXT,
    died_at     REAL NOT NULL,
    payload     TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS potatoq_dead_died ON potatoq_dead (died_at);
CREATE TABLE IF NOT EXISTS potatoq_workers (
    id          TEXT PRIMARY KEY,
    heartbeat   REAL NOT NULL,
    info        TEXT
);
CREATE TABLE IF NOT EXISTS potatoq_chord_parts (
    group_id    TEXT    NOT NULL,
    idx         INTEGER NOT NULL,
    result      TEXT    NOT NULL,
    created_at  REAL    NOT NULL,
    PRIMARY KEY (group_id, idx)
);
CREATE TABLE IF NOT EXISTS potatoq_chords (
    group_id    TEXT PRIMARY KEY,
    remaining   INTEGER NOT NULL,
    created_at  REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS potatoq_periodic (
    name        TEXT NOT NULL,
    fire_at     REAL NOT NULL,
    PRIMARY KEY (name, fire_at)
);
`;
