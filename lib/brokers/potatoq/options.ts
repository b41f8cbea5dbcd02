import 'server-only';
import { z } from 'zod';

// The options of a potatoq broker entry, per store. Checked at boot (lib/config.ts through the
// registry), so a bad or unknown option stops startup naming the field; the adapters read the
// parsed, typed values. No defaults here: each adapter documents and applies its own.

const ms = (what: string) =>
  z
    .number({ error: `${what} must be a number of milliseconds` })
    .int(`${what} must be a whole number`)
    .positive(`${what} must be more than 0`);
const seconds = (what: string) => z.number({ error: `${what} must be a number of seconds` }).positive(`${what} must be more than 0`);
const count = (what: string) =>
  z
    .number({ error: `${what} must be a number` })
    .int(`${what} must be a whole number`)
    .positive(`${what} must be more than 0`);
const text = (what: string) => z.string({ error: `${what} must be a string` });

/** What every potatoq store shares: potatoq's own settings the console must agree with. */
const common = {
  /** potatoq's `result_expires` (86400): how long REVOKED marks live. */
  resultExpires: seconds('resultExpires').optional(),
  /** potatoq's `worker_heartbeat_interval` (5): stale after 3 of them. */
  workerHeartbeatInterval: seconds('workerHeartbeatInterval').optional(),
  /** Seconds without a heartbeat before a worker is shown as dead (60). */
  workerDeadAfter: seconds('workerDeadAfter').optional(),
};

export const ZSqliteOptions = z.strictObject({
  ...common,
  busyTimeoutMs: ms('busyTimeoutMs').optional(),
  countCap: count('countCap').optional(),
  /** Rows of each of scheduled, running and dead the overview reads to count them per queue. */
  countScan: count('countScan').optional(),
  searchWindow: count('searchWindow').optional(),
  /** Set by the console for its embedded demo broker. */
  demo: z.boolean().optional(),
});
export type SqliteOptions = z.infer<typeof ZSqliteOptions>;

export const ZPostgresOptions = z.strictObject({
  ...common,
  schema: text('schema').optional(),
  table_prefix: text('table_prefix').optional(),
  tablePrefix: text('tablePrefix').optional(),
  poolSize: count('poolSize').optional(),
  writePoolSize: count('writePoolSize').optional(),
  statementTimeoutMs: ms('statementTimeoutMs').optional(),
  writeStatementTimeoutMs: ms('writeStatementTimeoutMs').optional(),
  lockTimeoutMs: ms('lockTimeoutMs').optional(),
  connectTimeoutMs: ms('connectTimeoutMs').optional(),
  countCap: count('countCap').optional(),
  /** Rows of each of scheduled, running and dead the overview reads to count them per queue. */
  countScan: count('countScan').optional(),
  searchWindow: count('searchWindow').optional(),
});
export type PostgresOptions = z.infer<typeof ZPostgresOptions>;

/** potatoq's result backend transport options, passed through to the backend's store. */
const ZResultBackendOptions = z.strictObject({
  prefix: text('prefix').optional(),
  global_keyprefix: text('global_keyprefix').optional(),
  schema: text('schema').optional(),
  table_prefix: text('table_prefix').optional(),
  tablePrefix: text('tablePrefix').optional(),
  busyTimeoutMs: ms('busyTimeoutMs').optional(),
});

export const ZRabbitmqOptions = z.strictObject({
  ...common,
  managementUrl: text('managementUrl').optional(),
  managementUser: text('managementUser').optional(),
  managementPassword: text('managementPassword').optional(),
  /** potatoq's `result_backend` URL (redis://, postgresql://, sqlite://), or "none". */
  resultBackend: text('resultBackend').optional(),
  resultBackendOptions: ZResultBackendOptions.optional(),
  resultPrefix: text('resultPrefix').optional(),
  /** Queues to show without a management API. */
  queues: z.array(text('each queue'), { error: 'queues must be a list of queue names' }).optional(),
  timeoutMs: ms('timeoutMs').optional(),
  deadBrowseLimit: count('deadBrowseLimit').optional(),
  /** Up to this many queues (500) are counted by passive declares; past it, from the management listing. */
  exactCountsUpTo: count('exactCountsUpTo').optional(),
});
export type RabbitmqOptions = z.infer<typeof ZRabbitmqOptions>;

/** potatoq on Redis or Valkey: the key prefix is potatoq's transport option (`global_keyprefix`, else `prefix`). */
export const ZRedisOptions = z.strictObject({
  ...common,
  prefix: text('prefix').optional(),
  global_keyprefix: text('global_keyprefix').optional(),
  /** Connect and command timeout (5000). */
  timeoutMs: ms('timeoutMs').optional(),
  /** Members a filtered list (task, id prefix, text, error group) examines per page at most (10000). */
  searchWindow: count('searchWindow').optional(),
  /** `rediss://` / `valkeys://`: a PEM file of the CA(s) to trust instead of the system's (a private CA). */
  tlsCaFile: text('tlsCaFile').min(1, 'tlsCaFile must not be empty').optional(),
});
export type RedisOptions = z.infer<typeof ZRedisOptions>;
