// Test fixture (not shipped code): the Simple Durable Jobs v4.5.1 schema exactly as
// docs/systems/simple-durable-jobs.md records it ("Appendix: the schema as dumped"), for the store
// layer's integration tests where the real library cannot be built. PostgreSQL: the dump's
// tables in foreign-key order with `CREATE` in front (`bigserial` makes the dump's
// `nextval('schema_migrations_version_seq')` default). MySQL: the dump's `SHOW CREATE TABLE`
// text verbatim, without the AUTO_INCREMENT the ledger's 35 rows bring back.
// `schema-fixture.int.test.ts` compares what these create with the appendix.
import type { TestDb } from '@/tests/sdj/databases';

/** `schema_migrations` at v4.5.1: versions 1–35 and their names (identical on both databases). */
export const MIGRATIONS: readonly (readonly [number, string])[] = [
  [1, 'rework_dequeue_index'],
  [2, 'mysql_active_unique_key'],
  [3, 'concurrency_slots_live_index'],
  [4, 'rate_limit_windows'],
  [5, 'retention_terminal_index'],
  [6, 'dead_letter_columns'],
  [7, 'scheduled_fire_last_fired_at'],
  [8, 'stale_lock_reaper_index'],
  [9, 'dequeue_order_index'],
  [10, 'unique_locks'],
  [11, 'fix_dead_letter_index'],
  [12, 'drop_redundant_job_indexes'],
  [13, 'dequeue_eligibility_index'],
  [14, 'integrity_foreign_keys'],
  [15, 'dialect_correctness'],
  [16, 'dlq_metadata_index'],
  [17, 'mysql_dequeue_index_order'],
  [18, 'deadletter_precision_align'],
  [19, 'retention_workflow_indexes'],
  [20, 'scale_finish_indexes'],
  [21, 'indexing_qc1'],
  [22, 'check_constraints'],
  [23, 'metadata_integrity'],
  [24, 'drop_redundant_signal_index'],
  [25, 'signal_fifo_index_drop_root_index_mysql_precision_collation'],
  [26, 'int_width_rightsizing'],
  [27, 'checkpoint_call_index_width'],
  [28, 'forbid_zero_uuid_refs'],
  [29, 'queue_states_queue_collation_as_cs'],
  [30, 'mysql_dequeue_eligibility_first'],
  [31, 'forbid_null_fan_out_counters'],
  [32, 'dqready_column_index'],
  [33, 'identifier_columns_collation_as_cs'],
  [34, 'unique_locks_job_id_index'],
  [35, 'fan_outs_status_allow_cancelled'],
];

export const PG_DDL = `CREATE TABLE jobs (
  id uuid NOT NULL,
  type character varying(255) NOT NULL,
  args bytea,
  queue character varying(255) NOT NULL DEFAULT 'default'::character varying,
  tenant character varying(255),
  metadata text,
  priority integer NOT NULL DEFAULT 0,
  status character varying(20) NOT NULL DEFAULT 'pending'::character varying,
  previous_status character varying(20),
  attempt integer NOT NULL DEFAULT 0,
  max_retries integer NOT NULL DEFAULT 3,
  timeout bigint NOT NULL DEFAULT 0,
  determinism integer NOT NULL DEFAULT 0,
  last_error text,
  dead_lettered_at timestamp with time zone,
  dead_letter_reason text,
  run_at timestamp with time zone,
  started_at timestamp with time zone,
  completed_at timestamp with time zone,
  created_at timestamp with time zone,
  updated_at timestamp with time zone,
  locked_by character varying(255),
  locked_until timestamp with time zone,
  last_heartbeat_at timestamp with time zone,
  unique_key character varying(255),
  dq_ready boolean NOT NULL DEFAULT true,
  parent_job_id uuid,
  root_job_id uuid,
  fan_out_id uuid,
  fan_out_index integer DEFAULT 0,
  result bytea,
  trace_context bytea,
  CONSTRAINT chk_jobs_attempt_nonneg CHECK ((attempt >= 0)),
  CONSTRAINT chk_jobs_fan_out_index_not_null CHECK ((fan_out_index IS NOT NULL)),
  CONSTRAINT chk_jobs_fan_out_not_zero CHECK (((fan_out_id IS NULL) OR (fan_out_id <> '00000000-0000-0000-0000-000000000000'::uuid))),
  CONSTRAINT chk_jobs_max_retries_nonneg CHECK ((max_retries >= 0)),
  CONSTRAINT chk_jobs_parent_job_not_zero CHECK (((parent_job_id IS NULL) OR (parent_job_id <> '00000000-0000-0000-0000-000000000000'::uuid))),
  CONSTRAINT chk_jobs_root_job_not_zero CHECK (((root_job_id IS NULL) OR (root_job_id <> '00000000-0000-0000-0000-000000000000'::uuid))),
  CONSTRAINT chk_jobs_status CHECK ((status IN ('pending', 'running', 'completed', 'failed', 'retrying', 'waiting', 'cancelled', 'paused'))),
  CONSTRAINT jobs_pkey PRIMARY KEY (id)
);
CREATE UNIQUE INDEX idx_jobs_active_unique ON jobs (unique_key) WHERE (((unique_key)::text <> ''::text) AND (status IN ('pending', 'running')));
CREATE INDEX idx_jobs_dead_lettered_at ON jobs (dead_lettered_at) WHERE (dead_lettered_at IS NOT NULL);
CREATE INDEX idx_jobs_dequeue_eligible ON jobs (priority DESC, COALESCE(run_at, created_at), queue) WHERE ((status)::text = 'pending'::text);
CREATE INDEX idx_jobs_dq_unready ON jobs (status, run_at) WHERE (dq_ready = false);
CREATE INDEX idx_jobs_fan_out_status ON jobs (fan_out_id, status);
CREATE INDEX idx_jobs_metadata_gin ON jobs USING gin (((NULLIF(metadata, ''::text))::jsonb) jsonb_path_ops);
CREATE INDEX idx_jobs_parent_job_id ON jobs (parent_job_id);
CREATE INDEX idx_jobs_parent_nonterminal ON jobs (parent_job_id) WHERE (status NOT IN ('completed', 'failed', 'cancelled'));
CREATE INDEX idx_jobs_queue_created ON jobs (queue, created_at DESC);
CREATE INDEX idx_jobs_retention_terminal ON jobs (status, completed_at, id) WHERE ((status IN ('completed', 'failed', 'cancelled')) AND (completed_at IS NOT NULL));
CREATE INDEX idx_jobs_root_nonterminal ON jobs (root_job_id) WHERE (status NOT IN ('completed', 'failed', 'cancelled'));
CREATE INDEX idx_jobs_stale_lock ON jobs (COALESCE(last_heartbeat_at, started_at, locked_until)) WHERE ((status)::text = 'running'::text);
CREATE INDEX idx_jobs_status_created ON jobs (status, created_at DESC);
CREATE INDEX idx_jobs_tenant ON jobs (tenant);
CREATE INDEX idx_jobs_type ON jobs (type);

CREATE TABLE checkpoints (
  id uuid NOT NULL,
  job_id uuid NOT NULL,
  call_index integer NOT NULL,
  call_type character varying(255) NOT NULL,
  result bytea,
  error text,
  error_kind character varying(64),
  error_cause text,
  error_delay_nanos bigint DEFAULT 0,
  created_at timestamp with time zone,
  CONSTRAINT checkpoints_pkey PRIMARY KEY (id),
  CONSTRAINT fk_checkpoints_job FOREIGN KEY (job_id) REFERENCES jobs(id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX idx_checkpoints_job_call ON checkpoints (job_id, call_index, call_type);
CREATE INDEX idx_checkpoints_job_id ON checkpoints (job_id);

CREATE TABLE concurrency_slots (
  slot_name character varying(255) NOT NULL,
  job_id uuid NOT NULL,
  worker_id character varying(255),
  expires_at timestamp with time zone,
  CONSTRAINT concurrency_slots_pkey PRIMARY KEY (slot_name, job_id)
);
CREATE INDEX idx_concurrency_slots_expires_at ON concurrency_slots (expires_at);
CREATE INDEX idx_concurrency_slots_live ON concurrency_slots (slot_name, expires_at);

CREATE TABLE fan_outs (
  id uuid NOT NULL,
  parent_job_id uuid NOT NULL,
  total_count integer NOT NULL,
  completed_count integer DEFAULT 0,
  failed_count integer DEFAULT 0,
  cancelled_count integer DEFAULT 0,
  strategy character varying(20) DEFAULT 'fail_fast'::character varying,
  threshold double precision DEFAULT 1,
  status character varying(20) DEFAULT 'pending'::character varying,
  timeout_at timestamp with time zone,
  cancel_on_fail boolean DEFAULT false,
  created_at timestamp with time zone,
  updated_at timestamp with time zone,
  CONSTRAINT chk_fan_outs_counts_nonneg CHECK (((total_count >= 0) AND (completed_count >= 0) AND (failed_count >= 0) AND (cancelled_count >= 0))),
  CONSTRAINT chk_fan_outs_counts_not_null CHECK (((completed_count IS NOT NULL) AND (failed_count IS NOT NULL) AND (cancelled_count IS NOT NULL))),
  CONSTRAINT chk_fan_outs_status CHECK ((status IN ('pending', 'completed', 'failed', 'cancelled'))),
  CONSTRAINT chk_fan_outs_strategy CHECK ((strategy IN ('fail_fast', 'collect_all', 'threshold'))),
  CONSTRAINT fan_outs_pkey PRIMARY KEY (id),
  CONSTRAINT fk_fanouts_parent FOREIGN KEY (parent_job_id) REFERENCES jobs(id) ON DELETE CASCADE
);
CREATE INDEX idx_fan_outs_parent_job_id ON fan_outs (parent_job_id);
CREATE INDEX idx_fan_outs_parent_status ON fan_outs (parent_job_id, status);
CREATE INDEX idx_fan_outs_timeout_at ON fan_outs (timeout_at);

CREATE TABLE leases (
  name character varying(128) NOT NULL,
  owner character varying(255),
  expires_at timestamp with time zone,
  CONSTRAINT leases_pkey PRIMARY KEY (name)
);
CREATE INDEX idx_leases_expires_at ON leases (expires_at);

CREATE TABLE queue_states (
  queue character varying(255) NOT NULL,
  paused boolean DEFAULT false,
  paused_at timestamp with time zone,
  paused_by character varying(255),
  updated_at timestamp with time zone,
  CONSTRAINT queue_states_pkey PRIMARY KEY (queue)
);

CREATE TABLE rate_limit_windows (
  limit_name character varying(255) NOT NULL,
  window_start timestamp with time zone NOT NULL,
  count bigint NOT NULL DEFAULT 0,
  created_at timestamp with time zone,
  updated_at timestamp with time zone,
  CONSTRAINT rate_limit_windows_pkey PRIMARY KEY (limit_name, window_start)
);

CREATE TABLE scheduled_fires (
  name character varying(255) NOT NULL,
  last_fire_at timestamp with time zone,
  last_fired_at timestamp with time zone,
  CONSTRAINT scheduled_fires_pkey PRIMARY KEY (name)
);

CREATE TABLE schema_migrations (
  version bigserial NOT NULL,
  name character varying(255),
  applied_at timestamp with time zone,
  CONSTRAINT schema_migrations_pkey PRIMARY KEY (version)
);

CREATE TABLE schema_pre_migrations (
  name character varying(255) NOT NULL,
  started_at timestamp with time zone,
  completed_at timestamp with time zone,
  CONSTRAINT schema_pre_migrations_pkey PRIMARY KEY (name)
);

CREATE TABLE signals (
  id uuid NOT NULL,
  job_id uuid NOT NULL,
  name character varying(255) NOT NULL,
  payload bytea,
  consumed_at timestamp with time zone,
  created_at timestamp with time zone,
  CONSTRAINT fk_signals_job FOREIGN KEY (job_id) REFERENCES jobs(id) ON DELETE CASCADE,
  CONSTRAINT signals_pkey PRIMARY KEY (id)
);
CREATE INDEX idx_signals_consumed_at ON signals (consumed_at, id) WHERE (consumed_at IS NOT NULL);
CREATE INDEX idx_signals_pending ON signals (job_id, name, created_at) WHERE (consumed_at IS NULL);

CREATE TABLE unique_locks (
  scope_hash character varying(64) NOT NULL,
  job_id uuid NOT NULL,
  expires_at timestamp with time zone NOT NULL,
  created_at timestamp with time zone,
  CONSTRAINT unique_locks_pkey PRIMARY KEY (scope_hash)
);
CREATE INDEX idx_unique_locks_expires_at ON unique_locks (expires_at);
CREATE INDEX idx_unique_locks_job_id ON unique_locks (job_id);`;

export const MYSQL_DDL: readonly string[] = [
  `CREATE TABLE \`jobs\` (
  \`id\` binary(16) NOT NULL,
  \`type\` varchar(255) NOT NULL,
  \`args\` longblob,
  \`queue\` varchar(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_as_cs NOT NULL DEFAULT 'default',
  \`tenant\` varchar(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_as_cs DEFAULT NULL,
  \`metadata\` longtext,
  \`priority\` int NOT NULL DEFAULT '0',
  \`status\` varchar(20) NOT NULL DEFAULT 'pending',
  \`previous_status\` varchar(20) DEFAULT NULL,
  \`attempt\` int NOT NULL DEFAULT '0',
  \`max_retries\` int NOT NULL DEFAULT '3',
  \`timeout\` bigint NOT NULL DEFAULT '0',
  \`determinism\` int NOT NULL DEFAULT '0',
  \`last_error\` text,
  \`dead_lettered_at\` datetime(3) DEFAULT NULL,
  \`dead_letter_reason\` text,
  \`run_at\` datetime(3) DEFAULT NULL,
  \`started_at\` datetime(3) DEFAULT NULL,
  \`completed_at\` datetime(3) DEFAULT NULL,
  \`created_at\` datetime(3) DEFAULT NULL,
  \`updated_at\` datetime(3) DEFAULT NULL,
  \`locked_by\` varchar(255) DEFAULT NULL,
  \`locked_until\` datetime(3) DEFAULT NULL,
  \`last_heartbeat_at\` datetime(3) DEFAULT NULL,
  \`unique_key\` varchar(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_as_cs DEFAULT NULL,
  \`dq_ready\` tinyint(1) NOT NULL DEFAULT '1',
  \`parent_job_id\` binary(16) DEFAULT NULL,
  \`root_job_id\` binary(16) DEFAULT NULL,
  \`fan_out_id\` binary(16) DEFAULT NULL,
  \`fan_out_index\` int DEFAULT '0',
  \`result\` longblob,
  \`trace_context\` longblob,
  \`active_unique_key\` varchar(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_as_cs GENERATED ALWAYS AS ((case when ((\`status\` in (_utf8mb4'pending',_utf8mb4'running')) and (\`unique_key\` <> _utf8mb4'')) then \`unique_key\` else NULL end)) STORED,
  \`dq_eligible_at\` datetime(3) GENERATED ALWAYS AS (if((\`status\` = _utf8mb4'pending'),coalesce(\`run_at\`,\`created_at\`),NULL)) STORED,
  \`pending_parent_ref\` binary(16) GENERATED ALWAYS AS ((case when (\`status\` not in (_utf8mb4'completed',_utf8mb4'failed',_utf8mb4'cancelled')) then \`parent_job_id\` end)) STORED,
  \`pending_root_ref\` binary(16) GENERATED ALWAYS AS ((case when (\`status\` not in (_utf8mb4'completed',_utf8mb4'failed',_utf8mb4'cancelled')) then \`root_job_id\` end)) STORED,
  PRIMARY KEY (\`id\`),
  UNIQUE KEY \`idx_jobs_active_unique\` (\`active_unique_key\`),
  KEY \`idx_jobs_type\` (\`type\`),
  KEY \`idx_jobs_fan_out_status\` (\`fan_out_id\`,\`status\`),
  KEY \`idx_jobs_parent_job_id\` (\`parent_job_id\`),
  KEY \`idx_jobs_dead_lettered_at\` (\`dead_lettered_at\`),
  KEY \`idx_jobs_unique_key\` (\`unique_key\`),
  KEY \`idx_jobs_tenant\` (\`tenant\`),
  KEY \`idx_jobs_parent_nonterminal\` (\`pending_parent_ref\`),
  KEY \`idx_jobs_root_nonterminal\` (\`pending_root_ref\`),
  KEY \`idx_jobs_retention_terminal\` (\`status\`,\`completed_at\`,\`id\`),
  KEY \`idx_jobs_status_created\` (\`status\`,\`created_at\` DESC),
  KEY \`idx_jobs_queue_created\` (\`queue\`,\`created_at\` DESC),
  KEY \`idx_jobs_dequeue_eligible\` (\`status\`,\`dq_eligible_at\`,\`priority\`,\`queue\`),
  KEY \`idx_jobs_dq_ready\` (\`status\`,\`dq_ready\`,\`priority\` DESC,\`dq_eligible_at\`,\`queue\`),
  KEY \`idx_jobs_stale_lock\` (\`status\`,(coalesce(\`last_heartbeat_at\`,\`started_at\`,\`locked_until\`))),
  CONSTRAINT \`chk_jobs_attempt_nonneg\` CHECK ((\`attempt\` >= 0)),
  CONSTRAINT \`chk_jobs_fan_out_index_not_null\` CHECK ((\`fan_out_index\` is not null)),
  CONSTRAINT \`chk_jobs_fan_out_not_zero\` CHECK (((\`fan_out_id\` is null) or (\`fan_out_id\` <> 0x00000000000000000000000000000000))),
  CONSTRAINT \`chk_jobs_max_retries_nonneg\` CHECK ((\`max_retries\` >= 0)),
  CONSTRAINT \`chk_jobs_metadata_json\` CHECK (((\`metadata\` is null) or (\`metadata\` = _utf8mb4'') or json_valid(\`metadata\`))),
  CONSTRAINT \`chk_jobs_parent_job_not_zero\` CHECK (((\`parent_job_id\` is null) or (\`parent_job_id\` <> 0x00000000000000000000000000000000))),
  CONSTRAINT \`chk_jobs_root_job_not_zero\` CHECK (((\`root_job_id\` is null) or (\`root_job_id\` <> 0x00000000000000000000000000000000))),
  CONSTRAINT \`chk_jobs_status\` CHECK (((\`status\` collate utf8mb4_0900_as_cs) in (_utf8mb4'pending',_utf8mb4'running',_utf8mb4'completed',_utf8mb4'failed',_utf8mb4'retrying',_utf8mb4'waiting',_utf8mb4'cancelled',_utf8mb4'paused')))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci`,
  `CREATE TABLE \`checkpoints\` (
  \`id\` binary(16) NOT NULL,
  \`job_id\` binary(16) NOT NULL,
  \`call_index\` int NOT NULL,
  \`call_type\` varchar(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_as_cs NOT NULL,
  \`result\` longblob,
  \`error\` text,
  \`error_kind\` varchar(64) DEFAULT NULL,
  \`error_cause\` text,
  \`error_delay_nanos\` bigint DEFAULT '0',
  \`created_at\` datetime(3) DEFAULT NULL,
  PRIMARY KEY (\`id\`),
  UNIQUE KEY \`idx_checkpoints_job_call\` (\`job_id\`,\`call_index\`,\`call_type\`),
  KEY \`idx_checkpoints_job_id\` (\`job_id\`),
  CONSTRAINT \`fk_checkpoints_job\` FOREIGN KEY (\`job_id\`) REFERENCES \`jobs\` (\`id\`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci`,
  `CREATE TABLE \`concurrency_slots\` (
  \`slot_name\` varchar(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_as_cs NOT NULL,
  \`job_id\` binary(16) NOT NULL,
  \`worker_id\` varchar(255) DEFAULT NULL,
  \`expires_at\` datetime(3) DEFAULT NULL,
  PRIMARY KEY (\`slot_name\`,\`job_id\`),
  KEY \`idx_concurrency_slots_live\` (\`slot_name\`,\`expires_at\`),
  KEY \`idx_concurrency_slots_expires_at\` (\`expires_at\`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci`,
  `CREATE TABLE \`fan_outs\` (
  \`id\` binary(16) NOT NULL,
  \`parent_job_id\` binary(16) NOT NULL,
  \`total_count\` int NOT NULL,
  \`completed_count\` int DEFAULT '0',
  \`failed_count\` int DEFAULT '0',
  \`cancelled_count\` int DEFAULT '0',
  \`strategy\` varchar(20) DEFAULT 'fail_fast',
  \`threshold\` double DEFAULT '1',
  \`status\` varchar(20) DEFAULT 'pending',
  \`timeout_at\` datetime(3) DEFAULT NULL,
  \`cancel_on_fail\` tinyint(1) DEFAULT '0',
  \`created_at\` datetime(3) DEFAULT NULL,
  \`updated_at\` datetime(3) DEFAULT NULL,
  PRIMARY KEY (\`id\`),
  KEY \`idx_fan_outs_parent_job_id\` (\`parent_job_id\`),
  KEY \`idx_fan_outs_parent_status\` (\`parent_job_id\`,\`status\`),
  KEY \`idx_fan_outs_timeout_at\` (\`timeout_at\`),
  CONSTRAINT \`fk_fanouts_parent\` FOREIGN KEY (\`parent_job_id\`) REFERENCES \`jobs\` (\`id\`) ON DELETE CASCADE,
  CONSTRAINT \`chk_fan_outs_counts_nonneg\` CHECK (((\`total_count\` >= 0) and (\`completed_count\` >= 0) and (\`failed_count\` >= 0) and (\`cancelled_count\` >= 0))),
  CONSTRAINT \`chk_fan_outs_counts_not_null\` CHECK (((\`completed_count\` is not null) and (\`failed_count\` is not null) and (\`cancelled_count\` is not null))),
  CONSTRAINT \`chk_fan_outs_status\` CHECK (((\`status\` collate utf8mb4_0900_as_cs) in (_utf8mb4'pending',_utf8mb4'completed',_utf8mb4'failed',_utf8mb4'cancelled'))),
  CONSTRAINT \`chk_fan_outs_strategy\` CHECK (((\`strategy\` collate utf8mb4_0900_as_cs) in (_utf8mb4'fail_fast',_utf8mb4'collect_all',_utf8mb4'threshold')))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci`,
  `CREATE TABLE \`leases\` (
  \`name\` varchar(128) NOT NULL,
  \`owner\` varchar(255) DEFAULT NULL,
  \`expires_at\` datetime(3) DEFAULT NULL,
  PRIMARY KEY (\`name\`),
  KEY \`idx_leases_expires_at\` (\`expires_at\`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci`,
  `CREATE TABLE \`queue_states\` (
  \`queue\` varchar(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_as_cs NOT NULL,
  \`paused\` tinyint(1) DEFAULT '0',
  \`paused_at\` datetime(3) DEFAULT NULL,
  \`paused_by\` varchar(255) DEFAULT NULL,
  \`updated_at\` datetime(3) DEFAULT NULL,
  PRIMARY KEY (\`queue\`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci`,
  `CREATE TABLE \`rate_limit_windows\` (
  \`limit_name\` varchar(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_as_cs NOT NULL,
  \`window_start\` datetime(3) NOT NULL,
  \`count\` bigint NOT NULL DEFAULT '0',
  \`created_at\` datetime(3) DEFAULT NULL,
  \`updated_at\` datetime(3) DEFAULT NULL,
  PRIMARY KEY (\`limit_name\`,\`window_start\`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci`,
  `CREATE TABLE \`scheduled_fires\` (
  \`name\` varchar(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_as_cs NOT NULL,
  \`last_fire_at\` datetime(3) DEFAULT NULL,
  \`last_fired_at\` datetime(3) DEFAULT NULL,
  PRIMARY KEY (\`name\`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci`,
  `CREATE TABLE \`schema_migrations\` (
  \`version\` bigint NOT NULL AUTO_INCREMENT,
  \`name\` varchar(255) DEFAULT NULL,
  \`applied_at\` datetime(3) DEFAULT NULL,
  PRIMARY KEY (\`version\`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci`,
  `CREATE TABLE \`schema_pre_migrations\` (
  \`name\` varchar(255) NOT NULL,
  \`started_at\` datetime(6) DEFAULT NULL,
  \`completed_at\` datetime(6) DEFAULT NULL,
  PRIMARY KEY (\`name\`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci`,
  `CREATE TABLE \`signals\` (
  \`id\` binary(16) NOT NULL,
  \`job_id\` binary(16) NOT NULL,
  \`name\` varchar(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_as_cs NOT NULL,
  \`payload\` longblob,
  \`consumed_at\` datetime(3) DEFAULT NULL,
  \`created_at\` datetime(3) DEFAULT NULL,
  PRIMARY KEY (\`id\`),
  KEY \`idx_signals_pending\` (\`job_id\`,\`name\`,\`consumed_at\`,\`created_at\`),
  KEY \`idx_signals_consumed_at\` (\`consumed_at\`,\`id\`),
  CONSTRAINT \`fk_signals_job\` FOREIGN KEY (\`job_id\`) REFERENCES \`jobs\` (\`id\`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci`,
  `CREATE TABLE \`unique_locks\` (
  \`scope_hash\` varchar(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_as_cs NOT NULL,
  \`job_id\` binary(16) NOT NULL,
  \`expires_at\` datetime(3) NOT NULL,
  \`created_at\` datetime(3) DEFAULT NULL,
  PRIMARY KEY (\`scope_hash\`),
  KEY \`idx_unique_locks_expires_at\` (\`expires_at\`),
  KEY \`idx_unique_locks_job_id\` (\`job_id\`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci`,
];

export type LedgerState = 'verified' | 'newer' | 'no-ledger-rows' | 'pre-migration-incomplete';

/** Creates the recorded schema in `db` and fills the ledgers as `Migrate()` leaves them. */
export async function createSdjSchema(db: TestDb, ledger: LedgerState = 'verified'): Promise<void> {
  if (db.dialect === 'postgres') await db.query(PG_DDL);
  else for (const s of MYSQL_DDL) await db.query(s);
  const now = db.dialect === 'postgres' ? 'NOW()' : 'NOW(6)';
  const p = (i: number) => (db.dialect === 'postgres' ? `$${i}` : '?');
  if (ledger !== 'no-ledger-rows') {
    const rows = ledger === 'newer' ? [...MIGRATIONS, [36, 'a_future_migration'] as const] : MIGRATIONS;
    for (const [v, name] of rows)
      await db.query(`INSERT INTO schema_migrations (version, name, applied_at) VALUES (${p(1)}, ${p(2)}, ${now})`, [v, name]);
  }
  const done = ledger === 'pre-migration-incomplete' ? 'NULL' : now;
  await db.query(`INSERT INTO schema_pre_migrations (name, started_at, completed_at) VALUES ('uuid_binary_conversion', ${now}, ${done})`);
}
