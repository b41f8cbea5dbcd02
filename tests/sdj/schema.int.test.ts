// What the real Simple Durable Jobs v4.5.1 Migrate() creates on PostgreSQL 15 and MySQL 9: the
// columns, types, indexes, CHECKs and ledgers the console's SDJ adapter reads and writes
// (docs/systems/simple-durable-jobs.md). A different library version that changes any of them
// fails here first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, serverAvailable, type Dialect, type TestDb } from './databases';
import { BUILD_TIMEOUT_MS, buildHarness, harness, removeHarness, sdjAvailability, type Harness } from './harness';

type Text = string | null;
interface Dump {
  dialect: Dialect;
  server_version: string;
  columns: Record<string, Text>[];
  indexes: Record<string, Text>[];
  constraints: Record<string, Text>[];
  foreign_keys?: Record<string, Text>[];
  schema_migrations: { version: string; name: string; applied_at: string }[];
  schema_pre_migrations: { name: string; started_at: Text; completed_at: Text }[];
  show_create_table?: Record<string, string>;
}

const sdj = sdjAvailability();
const servers: Record<Dialect, boolean> = {
  postgres: sdj.ok && (await serverAvailable('postgres')),
  mysql: sdj.ok && (await serverAvailable('mysql')),
};
let h: Harness | undefined;
beforeAll(() => {
  if (sdj.ok && (servers.postgres || servers.mysql)) {
    h = buildHarness(sdj.source);
    console.info(`sdj-harness built in ${h.buildSeconds.toFixed(1)}s`);
  }
}, BUILD_TIMEOUT_MS + 10_000);
afterAll(() => removeHarness(h));

/** The latest versioned migration at v4.5.1 (pkg/storage/migrations.go); the console's write gate keys on it. */
const LATEST = { version: '35', name: 'fan_outs_status_allow_cancelled' };
const STATUSES = ['pending', 'running', 'completed', 'failed', 'retrying', 'waiting', 'cancelled', 'paused'];
const TABLES = [
  'checkpoints',
  'concurrency_slots',
  'fan_outs',
  'jobs',
  'leases',
  'queue_states',
  'rate_limit_windows',
  'scheduled_fires',
  'schema_migrations',
  'schema_pre_migrations',
  'signals',
  'unique_locks',
];

/** jobs columns as `type[ NOT NULL]` per dialect: what the adapter maps. */
const JOBS_COLUMNS: Record<Dialect, Record<string, string>> = {
  postgres: {
    id: 'uuid NOT NULL',
    type: 'character varying(255) NOT NULL',
    args: 'bytea',
    queue: 'character varying(255) NOT NULL',
    tenant: 'character varying(255)',
    metadata: 'text',
    priority: 'integer NOT NULL',
    status: 'character varying(20) NOT NULL',
    previous_status: 'character varying(20)',
    attempt: 'integer NOT NULL',
    max_retries: 'integer NOT NULL',
    timeout: 'bigint NOT NULL',
    determinism: 'integer NOT NULL',
    last_error: 'text',
    dead_lettered_at: 'timestamp with time zone',
    dead_letter_reason: 'text',
    run_at: 'timestamp with time zone',
    started_at: 'timestamp with time zone',
    completed_at: 'timestamp with time zone',
    created_at: 'timestamp with time zone',
    updated_at: 'timestamp with time zone',
    locked_by: 'character varying(255)',
    locked_until: 'timestamp with time zone',
    last_heartbeat_at: 'timestamp with time zone',
    unique_key: 'character varying(255)',
    dq_ready: 'boolean NOT NULL',
    parent_job_id: 'uuid',
    root_job_id: 'uuid',
    fan_out_id: 'uuid',
    fan_out_index: 'integer',
    result: 'bytea',
    trace_context: 'bytea',
  },
  mysql: {
    id: 'binary(16) NOT NULL',
    type: 'varchar(255) NOT NULL',
    args: 'longblob',
    queue: 'varchar(255) NOT NULL',
    tenant: 'varchar(255)',
    metadata: 'longtext',
    priority: 'int NOT NULL',
    status: 'varchar(20) NOT NULL',
    previous_status: 'varchar(20)',
    attempt: 'int NOT NULL',
    max_retries: 'int NOT NULL',
    timeout: 'bigint NOT NULL',
    determinism: 'int NOT NULL',
    last_error: 'text',
    dead_lettered_at: 'datetime(3)',
    dead_letter_reason: 'text',
    run_at: 'datetime(3)',
    started_at: 'datetime(3)',
    completed_at: 'datetime(3)',
    created_at: 'datetime(3)',
    updated_at: 'datetime(3)',
    locked_by: 'varchar(255)',
    locked_until: 'datetime(3)',
    last_heartbeat_at: 'datetime(3)',
    unique_key: 'varchar(255)',
    dq_ready: 'tinyint(1) NOT NULL',
    parent_job_id: 'binary(16)',
    root_job_id: 'binary(16)',
    fan_out_id: 'binary(16)',
    fan_out_index: 'int',
    result: 'longblob',
    trace_context: 'longblob',
    // Generated STORED columns (never written by a producer).
    active_unique_key: 'varchar(255)',
    dq_eligible_at: 'datetime(3)',
    pending_parent_ref: 'binary(16)',
    pending_root_ref: 'binary(16)',
  },
};

function columnsOf(d: Dump, table: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of d.columns.filter((c) => c.table_name === table)) {
    const type =
      d.dialect === 'postgres'
        ? `${c.data_type}${c.character_maximum_length ? `(${c.character_maximum_length})` : ''}`
        : String(c.column_type);
    out[String(c.column_name)] = `${type}${c.is_nullable === 'NO' ? ' NOT NULL' : ''}`;
  }
  return out;
}
const defaultOf = (d: Dump, table: string, column: string) =>
  d.columns.find((c) => c.table_name === table && c.column_name === column)?.column_default ?? null;

/** Index name -> definition: pg_indexes.indexdef, or MySQL's ordered key parts (`col`, `col DESC`, `(expr)`). */
function indexesOf(d: Dump, table: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (d.dialect === 'postgres') {
    for (const i of d.indexes.filter((i) => i.table_name === table))
      out[String(i.index_name)] = String(i.definition).replace(/ ON public\.\w+ USING btree/, '');
    return out;
  }
  for (const i of d.indexes.filter((i) => i.table_name === table)) {
    const part = i.column_name ? `${i.column_name}${i.collation === 'D' ? ' DESC' : ''}` : `(${i.expression})`;
    const name = String(i.index_name);
    out[name] = out[name] ? `${out[name]}, ${part}` : `${i.non_unique === '0' ? 'UNIQUE ' : ''}${part}`;
  }
  return out;
}
const checksOf = (d: Dump, table: string) =>
  Object.fromEntries(
    d.constraints
      .filter((c) => c.table_name === table && (c.constraint_type === 'c' || c.constraint_type === 'CHECK'))
      .map((c) => [String(c.constraint_name), String(c.definition)]),
  );

for (const dialect of ['postgres', 'mysql'] as const) {
  describe.skipIf(!servers[dialect])(`Simple Durable Jobs v4.5.1 Migrate() on ${dialect}`, () => {
    // One migrated database for the read-only schema assertions of this dialect.
    let db: TestDb;
    let dump: Dump;
    beforeAll(async () => {
      db = await createTestDb(dialect);
      harness(h!, ['migrate', '--url', db.url]);
      dump = harness<Dump>(h!, ['dump-schema', '--url', db.url]);
    });
    afterAll(async () => db?.drop());

    it('runs against the verified server version', () => {
      expect(dump.server_version).toMatch(dialect === 'postgres' ? /^PostgreSQL 15\./ : /^9\./);
    });

    it('creates exactly the library tables, jobs with the columns and types the console maps', () => {
      expect([...new Set(dump.columns.map((c) => String(c.table_name)))].sort()).toEqual(TABLES);
      expect(columnsOf(dump, 'jobs')).toEqual(JOBS_COLUMNS[dialect]);
    });

    it('defaults the columns a raw producer may leave out (status pending, queue default, dq_ready true, fan_out_index 0)', () => {
      const want =
        dialect === 'postgres'
          ? {
              status: "'pending'::character varying",
              queue: "'default'::character varying",
              attempt: '0',
              max_retries: '3',
              priority: '0',
              timeout: '0',
              determinism: '0',
              dq_ready: 'true',
              fan_out_index: '0',
              locked_by: null,
              created_at: null,
            }
          : {
              status: 'pending',
              queue: 'default',
              attempt: '0',
              max_retries: '3',
              priority: '0',
              timeout: '0',
              determinism: '0',
              dq_ready: '1',
              fan_out_index: '0',
              locked_by: null,
              created_at: null,
            };
      for (const [col, def] of Object.entries(want)) expect([col, defaultOf(dump, 'jobs', col)]).toEqual([col, def]);
    });

    it('guards status with chk_jobs_status over the eight statuses, and forbids zero UUID refs', () => {
      const checks = checksOf(dump, 'jobs');
      expect(Object.keys(checks).sort()).toEqual(
        [
          'chk_jobs_attempt_nonneg',
          'chk_jobs_fan_out_index_not_null',
          'chk_jobs_fan_out_not_zero',
          'chk_jobs_max_retries_nonneg',
          ...(dialect === 'mysql' ? ['chk_jobs_metadata_json'] : []),
          'chk_jobs_parent_job_not_zero',
          'chk_jobs_root_job_not_zero',
          'chk_jobs_status',
        ].sort(),
      );
      // MySQL's information_schema shows the literals as _utf8mb4\'pending\'.
      const listed = [...checks.chk_jobs_status!.matchAll(/\\?'(\w+)\\?'/g)].map((m) => m[1]);
      expect(listed).toEqual(STATUSES);
      if (dialect === 'postgres')
        expect(
          dump.constraints.filter((c) => c.table_name === 'jobs' && c.constraint_type === 'c').every((c) => c.validated === 'true'),
        ).toBe(true);
    });

    it('creates the dequeue, stale-lock, dead-letter and listing indexes the console pages by', () => {
      const idx = indexesOf(dump, 'jobs');
      if (dialect === 'postgres') {
        expect(idx).toMatchObject({
          idx_jobs_dequeue_eligible:
            "CREATE INDEX idx_jobs_dequeue_eligible (priority DESC, COALESCE(run_at, created_at), queue) WHERE ((status)::text = 'pending'::text)",
          idx_jobs_stale_lock:
            "CREATE INDEX idx_jobs_stale_lock (COALESCE(last_heartbeat_at, started_at, locked_until)) WHERE ((status)::text = 'running'::text)",
          idx_jobs_dead_lettered_at: 'CREATE INDEX idx_jobs_dead_lettered_at (dead_lettered_at) WHERE (dead_lettered_at IS NOT NULL)',
          idx_jobs_status_created: 'CREATE INDEX idx_jobs_status_created (status, created_at DESC)',
          idx_jobs_queue_created: 'CREATE INDEX idx_jobs_queue_created (queue, created_at DESC)',
          idx_jobs_fan_out_status: 'CREATE INDEX idx_jobs_fan_out_status (fan_out_id, status)',
        });
        expect(idx.idx_jobs_active_unique).toContain(
          "CREATE UNIQUE INDEX idx_jobs_active_unique (unique_key) WHERE (((unique_key)::text <> ''::text) AND ((status)::text = ANY",
        );
      } else {
        expect(idx).toMatchObject({
          idx_jobs_dequeue_eligible: 'status, dq_eligible_at, priority, queue',
          idx_jobs_dq_ready: 'status, dq_ready, priority DESC, dq_eligible_at, queue',
          idx_jobs_stale_lock: 'status, (coalesce(`last_heartbeat_at`,`started_at`,`locked_until`))',
          idx_jobs_dead_lettered_at: 'dead_lettered_at',
          idx_jobs_status_created: 'status, created_at DESC',
          idx_jobs_queue_created: 'queue, created_at DESC',
          idx_jobs_fan_out_status: 'fan_out_id, status',
          idx_jobs_active_unique: 'UNIQUE active_unique_key',
        });
      }
      const names = Object.keys(idx).sort();
      const common = [
        'idx_jobs_active_unique',
        'idx_jobs_dead_lettered_at',
        'idx_jobs_dequeue_eligible',
        'idx_jobs_fan_out_status',
        'idx_jobs_parent_job_id',
        'idx_jobs_parent_nonterminal',
        'idx_jobs_queue_created',
        'idx_jobs_retention_terminal',
        'idx_jobs_root_nonterminal',
        'idx_jobs_stale_lock',
        'idx_jobs_status_created',
        'idx_jobs_tenant',
        'idx_jobs_type',
      ];
      const own =
        dialect === 'postgres'
          ? ['idx_jobs_dq_unready', 'idx_jobs_metadata_gin', 'jobs_pkey']
          : ['PRIMARY', 'idx_jobs_dq_ready', 'idx_jobs_unique_key'];
      expect(names).toEqual([...common, ...own].sort());
    });

    it('keeps checkpoints, fan-outs and signals on jobs by ON DELETE CASCADE foreign keys; queue_states keyed by queue', () => {
      const fks =
        dialect === 'postgres'
          ? dump.constraints.filter((c) => c.constraint_type === 'f').map((c) => `${c.table_name}.${c.constraint_name}: ${c.definition}`)
          : (dump.foreign_keys ?? []).map((c) => `${c.table_name}.${c.constraint_name}: ${c.referenced_table} ${c.delete_rule}`);
      expect(fks.sort()).toEqual(
        dialect === 'postgres'
          ? [
              'checkpoints.fk_checkpoints_job: FOREIGN KEY (job_id) REFERENCES jobs(id) ON DELETE CASCADE',
              'fan_outs.fk_fanouts_parent: FOREIGN KEY (parent_job_id) REFERENCES jobs(id) ON DELETE CASCADE',
              'signals.fk_signals_job: FOREIGN KEY (job_id) REFERENCES jobs(id) ON DELETE CASCADE',
            ]
          : [
              'checkpoints.fk_checkpoints_job: jobs CASCADE',
              'fan_outs.fk_fanouts_parent: jobs CASCADE',
              'signals.fk_signals_job: jobs CASCADE',
            ],
      );
      const uuid = dialect === 'postgres' ? 'uuid NOT NULL' : 'binary(16) NOT NULL';
      expect(columnsOf(dump, 'checkpoints')).toMatchObject({
        id: uuid,
        job_id: uuid,
        call_index: dialect === 'postgres' ? 'integer NOT NULL' : 'int NOT NULL',
      });
      expect(indexesOf(dump, 'checkpoints').idx_checkpoints_job_call).toMatch(
        dialect === 'postgres'
          ? /UNIQUE INDEX idx_checkpoints_job_call \(job_id, call_index, call_type\)/
          : /^UNIQUE job_id, call_index, call_type$/,
      );
      expect(Object.keys(columnsOf(dump, 'fan_outs'))).toEqual([
        'id',
        'parent_job_id',
        'total_count',
        'completed_count',
        'failed_count',
        'cancelled_count',
        'strategy',
        'threshold',
        'status',
        'timeout_at',
        'cancel_on_fail',
        'created_at',
        'updated_at',
      ]);
      expect(checksOf(dump, 'fan_outs').chk_fan_outs_status).toMatch(/pending\\?'.*completed\\?'.*failed\\?'.*cancelled\\?'/);
      expect(Object.keys(columnsOf(dump, 'queue_states'))).toEqual(['queue', 'paused', 'paused_at', 'paused_by', 'updated_at']);
      expect(columnsOf(dump, 'queue_states').queue).toMatch(/NOT NULL$/);
    });

    it('records 35 versioned migrations in schema_migrations and the uuid_binary_conversion pre-migration', () => {
      expect(dump.schema_migrations.map((m) => Number(m.version))).toEqual(Array.from({ length: 35 }, (_, i) => i + 1));
      expect(dump.schema_migrations.at(-1)).toMatchObject(LATEST);
      expect(dump.schema_pre_migrations).toHaveLength(1);
      expect(dump.schema_pre_migrations[0]).toMatchObject({ name: 'uuid_binary_conversion' });
      expect(dump.schema_pre_migrations[0]!.completed_at).not.toBeNull();
    });

    it('a second Migrate() changes nothing: same ledger, same jobs shape', () => {
      harness(h!, ['migrate', '--url', db.url]);
      const again = harness<Dump>(h!, ['dump-schema', '--url', db.url]);
      expect(again.schema_migrations).toEqual(dump.schema_migrations);
      expect(columnsOf(again, 'jobs')).toEqual(columnsOf(dump, 'jobs'));
      expect(indexesOf(again, 'jobs')).toEqual(indexesOf(dump, 'jobs'));
    });
  });

  describe.skipIf(!servers[dialect])(`the jobs table's CHECKs on ${dialect}`, () => {
    let db: TestDb;
    beforeAll(async () => {
      db = await createTestDb(dialect);
      harness(h!, ['migrate', '--url', db.url]);
    });
    afterAll(async () => db?.drop());

    const insert = (status: string) =>
      dialect === 'postgres'
        ? db.query(
            `INSERT INTO jobs (id, type, args, queue, status, created_at, updated_at) VALUES (gen_random_uuid(), 'record', '\\x7b7d', 'q', $1, NOW(), NOW())`,
            [status],
          )
        : db.query(
            `INSERT INTO jobs (id, type, args, queue, status, created_at, updated_at) VALUES (UUID_TO_BIN(UUID()), 'record', '{}', 'q', ?, NOW(6), NOW(6))`,
            [status],
          );

    it('rejects a status outside the eight (case-sensitive on MySQL too)', async () => {
      await expect(insert('bogus')).rejects.toThrow(/chk_jobs_status/);
      await expect(insert('Pending')).rejects.toThrow(/chk_jobs_status/);
      await insert('paused');
      const rows = await db.query<{ n: number | string }>('SELECT COUNT(*) AS n FROM jobs');
      expect(Number(rows[0]!.n)).toBe(1);
    });
  });
}
