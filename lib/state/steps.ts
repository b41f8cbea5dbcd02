import 'server-only';

export type Dialect = 'sqlite' | 'postgres';

/**
 * One step of the console's own schema. Its id is recorded in the ledger once it ran and is
 * never renamed or reused; a later change is a new step appended to STEPS. Every statement is
 * idempotent (`IF NOT EXISTS`), and so is adding a column (only where the table lacks it): a
 * state store made by a release before the ledger existed runs every step once, over tables it
 * already has, and keeps its rows. Columns are added after the step's statements.
 */
export interface SchemaStep {
  id: string;
  statements(d: Dialect): readonly string[];
  /** Columns added to a table after its first release: [table, column, type]. */
  columns?(d: Dialect): ReadonlyArray<readonly [table: string, column: string, type: string]>;
}

// The tables are the same in SQLite and PostgreSQL but for the key and number types; JSON is
// text and times are ISO text or epoch ms, so both stores map rows alike.
const int = (d: Dialect) => (d === 'sqlite' ? 'INTEGER' : 'BIGINT');

const AUDIT = (d: Dialect) => [
  `CREATE TABLE IF NOT EXISTS console_audit (
    seq ${d === 'sqlite' ? 'INTEGER PRIMARY KEY AUTOINCREMENT' : 'BIGSERIAL PRIMARY KEY'},
    id TEXT NOT NULL UNIQUE, at TEXT NOT NULL, finished_at TEXT, who TEXT NOT NULL, role TEXT, via TEXT,
    action TEXT NOT NULL, broker TEXT NOT NULL, queue TEXT, ids TEXT NOT NULL, ids_total INTEGER NOT NULL,
    filter TEXT, count INTEGER, reason TEXT, outcome TEXT NOT NULL, code TEXT, message TEXT,
    results TEXT NOT NULL, details TEXT NOT NULL, subject TEXT, issuer TEXT)`,
  `CREATE TABLE IF NOT EXISTS console_audit_ids (audit_seq ${int(d)} NOT NULL, broker TEXT NOT NULL, task_id TEXT NOT NULL)`,
  'CREATE INDEX IF NOT EXISTS console_audit_ids_task ON console_audit_ids (broker, task_id, audit_seq)',
  'CREATE INDEX IF NOT EXISTS console_audit_broker ON console_audit (broker, seq)',
  `CREATE TABLE IF NOT EXISTS console_oidc_users (
    name TEXT PRIMARY KEY, issuer TEXT NOT NULL, subject TEXT NOT NULL, bound_at TEXT NOT NULL)`,
];

const BULK = [
  `CREATE TABLE IF NOT EXISTS console_bulk_jobs (
    id TEXT PRIMARY KEY, broker TEXT NOT NULL, created_at TEXT NOT NULL, state TEXT NOT NULL,
    owner TEXT, heartbeat_ms BIGINT NOT NULL, control TEXT, finished_at TEXT,
    row TEXT NOT NULL, ids TEXT NOT NULL)`,
  'CREATE INDEX IF NOT EXISTS console_bulk_jobs_broker ON console_bulk_jobs (broker, created_at)',
  `CREATE TABLE IF NOT EXISTS console_bulk_outcomes (
    job_id TEXT NOT NULL, n INTEGER NOT NULL, id TEXT NOT NULL, outcome TEXT NOT NULL, message TEXT NOT NULL)`,
  'CREATE INDEX IF NOT EXISTS console_bulk_outcomes_job ON console_bulk_outcomes (job_id, n)',
];

// The primary key (source broker, letter id) is the arbiter between two moves of one letter.
const MOVE_JOURNAL = [
  `CREATE TABLE IF NOT EXISTS console_move_journal (
    source TEXT NOT NULL, id TEXT NOT NULL, target TEXT NOT NULL, move_id TEXT NOT NULL,
    at TEXT NOT NULL, who TEXT NOT NULL, audit_id TEXT, until_ms BIGINT NOT NULL, note TEXT,
    PRIMARY KEY (source, id))`,
];

// A waiting task's call held by its move between taking it from the source and its arrival on
// the target (lib/brokers/move-held.ts): keyed like the journal, tied to one attempt (move_id).
const MOVE_HELD = [
  `CREATE TABLE IF NOT EXISTS console_move_held (
    source TEXT NOT NULL, id TEXT NOT NULL, move_id TEXT NOT NULL, call_json TEXT NOT NULL, claim TEXT NOT NULL,
    PRIMARY KEY (source, id))`,
];

// Call mappings between call models (lib/brokers/mapping/store.ts): one row per (source broker,
// target broker, source task name), the mapping as JSON.
const CALL_MAPPINGS = [
  `CREATE TABLE IF NOT EXISTS console_call_mappings (
    source TEXT NOT NULL, target TEXT NOT NULL, task TEXT NOT NULL, body TEXT NOT NULL,
    updated_at TEXT NOT NULL, updated_by TEXT NOT NULL, PRIMARY KEY (source, target, task))`,
];

// Queue-health targets edited in the console, the webhook settings (one row per key), and per
// target the last transition a webhook was sent for: every console instance on the store
// claims a transition with one conditional upsert, so only one of them sends it.
const ALERTS = [
  `CREATE TABLE IF NOT EXISTS console_alert_targets (
    id TEXT PRIMARY KEY, body TEXT NOT NULL, updated_at TEXT NOT NULL, updated_by TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS console_alert_settings (
    key TEXT PRIMARY KEY, body TEXT NOT NULL, updated_at TEXT NOT NULL, updated_by TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS console_alert_sends (
    target TEXT PRIMARY KEY, state TEXT NOT NULL, changed_at TEXT NOT NULL, sent_at TEXT)`,
];

// Before the one lease table: pause holds had their own (moved into console_leases by
// `pause-leases-2`, which drops it).
const PAUSE_LEASES = [
  `CREATE TABLE IF NOT EXISTS console_pause_leases (
    broker TEXT NOT NULL, queue TEXT NOT NULL, owner TEXT NOT NULL, started_at TEXT NOT NULL,
    deadline_ms BIGINT NOT NULL, paused_by_console INTEGER NOT NULL, detail TEXT NOT NULL,
    PRIMARY KEY (broker, queue))`,
];

const TRENDS = (d: Dialect) => [
  `CREATE TABLE IF NOT EXISTS console_trend_samples (
    broker TEXT NOT NULL, queue TEXT NOT NULL, at_ms ${int(d)} NOT NULL, depth ${int(d)},
    oldest_s ${d === 'sqlite' ? 'REAL' : 'DOUBLE PRECISION'}, dead ${int(d)}, depth_capped ${int(d)}, dead_capped ${int(d)},
    PRIMARY KEY (broker, queue, at_ms))`,
  'CREATE INDEX IF NOT EXISTS console_trend_samples_at ON console_trend_samples (at_ms)',
  // The one lease table (lib/state/leases.ts); first made for the trend sampler.
  `CREATE TABLE IF NOT EXISTS console_leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_ms ${int(d)} NOT NULL)`,
];

// Each pause hold becomes the lease `pause/<broker>/<queue>` (broker ids have no `/`), its
// flags and notes the lease's data. One statement on PostgreSQL (copy and drop in one
// transaction, also when it runs again after a start cut off before the ledger recorded it).
// (`WHERE true`: SQLite would read the ON of ON CONFLICT as a join's.)
const PAUSE_INTO_LEASES = (d: Dialect) => {
  const copy = (data: string) =>
    `INSERT INTO console_leases (name, holder, expires_ms, started_at, data)
     SELECT 'pause/' || broker || '/' || queue, owner, deadline_ms, started_at, ${data} FROM console_pause_leases
     WHERE true ON CONFLICT (name) DO NOTHING`;
  if (d === 'sqlite')
    return [
      copy("json_object('broker', broker, 'queue', queue, 'pausedByConsole', paused_by_console = 1, 'detail', json(detail))"),
      'DROP TABLE console_pause_leases',
    ];
  return [
    `DO $$ BEGIN IF to_regclass('console_pause_leases') IS NOT NULL THEN
       ${copy("json_build_object('broker', broker, 'queue', queue, 'pausedByConsole', paused_by_console = 1, 'detail', detail::json)::text")};
       DROP TABLE console_pause_leases;
     END IF; END $$`,
  ];
};

// A bulk job's owner becomes its lease `bulk/<id>` (lib/bulk/store-sql.ts), expiring when the
// owner's heartbeat would have been taken for gone (30 s after it); then the row's owner and
// heartbeat columns go, so nothing can read or write ownership but through the lease (and a still
// running console of an older release fails to save a job instead of running it beside this one).
// Only running and paused jobs had a live owner; a queued job's is taken by whoever starts it.
// One statement on PostgreSQL, as pause-leases-2.
const BULK_INTO_LEASES = (d: Dialect) => {
  const copy = `INSERT INTO console_leases (name, holder, expires_ms, started_at, data)
     SELECT 'bulk/' || id, owner, heartbeat_ms + 30000, NULL, NULL FROM console_bulk_jobs
     WHERE owner IS NOT NULL AND state IN ('running', 'paused') ON CONFLICT (name) DO NOTHING`;
  const drop = 'ALTER TABLE console_bulk_jobs DROP COLUMN owner';
  const drop2 = 'ALTER TABLE console_bulk_jobs DROP COLUMN heartbeat_ms';
  if (d === 'sqlite') return [copy, drop, drop2];
  return [
    `DO $$ BEGIN IF EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema()
       AND table_name = 'console_bulk_jobs' AND column_name = 'owner') THEN
       ${copy};
       ${drop}, DROP COLUMN heartbeat_ms;
     END IF; END $$`,
  ];
};

// Campaigns (lib/campaigns/): a replay and the follow-up of each task it replayed. An item's
// `settled` and `checked_ms` pick the follow-up's next batch off an index, whatever the size.
const CAMPAIGNS = (d: Dialect) => [
  `CREATE TABLE IF NOT EXISTS console_campaigns (
    id TEXT PRIMARY KEY, broker TEXT NOT NULL, action TEXT NOT NULL, created_at TEXT NOT NULL, who TEXT NOT NULL,
    reason TEXT, audit_id TEXT, parent TEXT, scope TEXT NOT NULL, total ${int(d)} NOT NULL,
    follow_state TEXT NOT NULL, follow_why TEXT, followed_ms ${int(d)} NOT NULL)`,
  'CREATE INDEX IF NOT EXISTS console_campaigns_created ON console_campaigns (created_at, id)',
  `CREATE TABLE IF NOT EXISTS console_campaign_items (
    campaign TEXT NOT NULL, n ${int(d)} NOT NULL, task_id TEXT NOT NULL, before_fp TEXT, fate TEXT NOT NULL,
    same INTEGER, fp TEXT, state TEXT, detail TEXT NOT NULL, followed TEXT, at TEXT,
    checked_ms ${int(d)} NOT NULL, settled INTEGER NOT NULL, PRIMARY KEY (campaign, n))`,
  'CREATE INDEX IF NOT EXISTS console_campaign_items_due ON console_campaign_items (campaign, settled, checked_ms, n)',
  'CREATE INDEX IF NOT EXISTS console_campaign_items_fate ON console_campaign_items (campaign, fate, n)',
  'CREATE INDEX IF NOT EXISTS console_campaign_items_task ON console_campaign_items (task_id, campaign)',
];

// The background follower picks the open campaigns polled longest ago; the trend chart marks
// a broker's campaigns in its window.
const CAMPAIGNS_2 = [
  'CREATE INDEX IF NOT EXISTS console_campaigns_following ON console_campaigns (follow_state, followed_ms)',
  'CREATE INDEX IF NOT EXISTS console_campaigns_broker ON console_campaigns (broker, created_at)',
];

// The recorded deaths (lib/trends/deaths-store.ts): every letter the console saw die, once
// (`console_dead_seen`, kept a few hours: the dedupe across ticks and instances), counted into
// minute buckets per (broker, queue, fingerprint) that outlive the letters (`console_dead_series`).
const DEATHS = (d: Dialect) => [
  `CREATE TABLE IF NOT EXISTS console_dead_seen (
    broker TEXT NOT NULL, letter_id TEXT NOT NULL, died_ms ${int(d)} NOT NULL, queue TEXT NOT NULL, fp TEXT NOT NULL,
    counted INTEGER NOT NULL, PRIMARY KEY (broker, letter_id, died_ms))`,
  'CREATE INDEX IF NOT EXISTS console_dead_seen_counted ON console_dead_seen (broker, counted)',
  'CREATE INDEX IF NOT EXISTS console_dead_seen_died ON console_dead_seen (died_ms)',
  `CREATE TABLE IF NOT EXISTS console_dead_series (
    broker TEXT NOT NULL, queue TEXT NOT NULL, fp TEXT NOT NULL, minute_ms ${int(d)} NOT NULL, n ${int(d)} NOT NULL,
    PRIMARY KEY (broker, minute_ms, queue, fp))`,
  'CREATE INDEX IF NOT EXISTS console_dead_series_minute ON console_dead_series (minute_ms)',
];

// The moves ledger (lib/brokers/moves-ledger.ts): each finished move of a task, kept after the
// journal row goes, so either side's task page says where the work went or came from. One row
// per (source broker, source id, target broker, target id); pruned by `at` (its retention).
const MOVES_LEDGER = [
  `CREATE TABLE IF NOT EXISTS console_moves (
    source TEXT NOT NULL, source_id TEXT NOT NULL, target TEXT NOT NULL, target_id TEXT NOT NULL,
    outcome TEXT NOT NULL, task TEXT, at TEXT NOT NULL, who TEXT NOT NULL, audit_id TEXT, message TEXT NOT NULL,
    PRIMARY KEY (source, source_id, target, target_id))`,
  'CREATE INDEX IF NOT EXISTS console_moves_target ON console_moves (target, target_id)',
  'CREATE INDEX IF NOT EXISTS console_moves_pair ON console_moves (source, target, at)',
  'CREATE INDEX IF NOT EXISTS console_moves_at ON console_moves (at)',
];

// Team saved views (lib/views/store.ts): a list's link under a name, per broker.
const SAVED_VIEWS = [
  `CREATE TABLE IF NOT EXISTS console_saved_views (
    broker TEXT NOT NULL, name TEXT NOT NULL, href TEXT NOT NULL, created_at TEXT NOT NULL,
    created_by TEXT NOT NULL, PRIMARY KEY (broker, name))`,
];

// The background alert evaluator's memory per target (lib/alerts/memory.ts): when its breach
// began (for `for`), the last dead-letter count read (a rate), the fingerprints seen when
// watching began; shared by every instance on the store and kept across restarts.
const ALERT_MEMORY = (d: Dialect) => [
  `CREATE TABLE IF NOT EXISTS console_alert_memory (
    target TEXT PRIMARY KEY, since_ms ${int(d)}, dead_at_ms ${int(d)}, dead_count ${int(d)}, seen TEXT, updated_ms ${int(d)} NOT NULL)`,
];

/** The console's schema, in order. Append only. */
export const STEPS: readonly SchemaStep[] = [
  {
    id: 'audit-1',
    statements: AUDIT,
    columns: () => [
      ['console_audit', 'subject', 'TEXT'],
      ['console_audit', 'issuer', 'TEXT'],
    ],
  },
  { id: 'bulk-1', statements: () => BULK },
  { id: 'move-journal-1', statements: () => MOVE_JOURNAL },
  { id: 'pause-leases-1', statements: () => PAUSE_LEASES },
  {
    id: 'trends-1',
    statements: TRENDS,
    columns: (d) => [
      ['console_trend_samples', 'depth_capped', int(d)],
      ['console_trend_samples', 'dead_capped', int(d)],
    ],
  },
  {
    id: 'leases-2',
    statements: () => [],
    columns: () => [
      ['console_leases', 'started_at', 'TEXT'],
      ['console_leases', 'data', 'TEXT'],
    ],
  },
  { id: 'pause-leases-2', statements: PAUSE_INTO_LEASES },
  { id: 'bulk-leases-2', statements: BULK_INTO_LEASES },
  { id: 'call-mappings-1', statements: () => CALL_MAPPINGS },
  { id: 'campaigns-1', statements: CAMPAIGNS },
  { id: 'alerts-1', statements: () => ALERTS },
  { id: 'move-held-1', statements: () => MOVE_HELD },
  { id: 'moves-ledger-1', statements: () => MOVES_LEDGER },
  { id: 'campaigns-2', statements: () => CAMPAIGNS_2 },
  { id: 'deaths-1', statements: DEATHS },
  { id: 'saved-views-1', statements: () => SAVED_VIEWS },
  { id: 'alert-memory-1', statements: ALERT_MEMORY },
  // Team views edited in place (lib/views/store.ts): a description, and a version that refuses an
  // edit made from an older copy of the view (NULL in rows saved before: version 1).
  {
    id: 'saved-views-2',
    statements: () => [],
    columns: (d) => [
      ['console_saved_views', 'description', 'TEXT'],
      ['console_saved_views', 'version', int(d)],
      ['console_saved_views', 'updated_at', 'TEXT'],
      ['console_saved_views', 'updated_by', 'TEXT'],
    ],
  },
  // A moved task's campaign item keeps its id on the broker it came from (lib/campaigns/store.ts):
  // the campaign follows the id the target gave it. NULL for everything else.
  { id: 'campaigns-3', statements: () => [], columns: () => [['console_campaign_items', 'source_id', 'TEXT']] },
  // A campaign's queues (lib/campaigns/schema.ts `queuesColumn`): a queue's chart marks only the
  // campaigns of that queue. NULL in campaigns made before (and where not known): broker-wide.
  { id: 'campaigns-4', statements: () => [], columns: () => [['console_campaigns', 'queues', 'TEXT']] },
  // A dead item's letter id where the broker gives a letter its own (QueueFlow's DLQ entry): what
  // "replay the ones that died again" replays. NULL: the task's id. The index finds a moved task's
  // campaigns by its id on the broker it came from (`/campaigns?task=`), as by its target id.
  {
    id: 'campaigns-5',
    statements: () => ['CREATE INDEX IF NOT EXISTS console_campaign_items_source ON console_campaign_items (source_id, campaign)'],
    columns: () => [['console_campaign_items', 'letter_id', 'TEXT']],
  },
];
