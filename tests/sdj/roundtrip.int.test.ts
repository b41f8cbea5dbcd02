// Round trips with the real Simple Durable Jobs v4.5.1 worker on PostgreSQL 15 and MySQL 9: what
// its Go API writes is what the console will read; what the console will INSERT through the
// library's raw-SQL enqueue contract is claimed and run by the Go worker with the same args; and
// the exact dead-letter reasons the library writes (docs/systems/simple-durable-jobs.md).
import { afterEach, afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDb, serverAvailable, type Dialect, type TestDb } from './databases';
import { BUILD_TIMEOUT_MS, buildHarness, harness, removeHarness, runHarness, runWorker, sdjAvailability, type Harness } from './harness';
import { rawEnqueue, readJob, uuidBytes } from './jobs-table';

const sdj = sdjAvailability();
const servers: Record<Dialect, boolean> = {
  postgres: sdj.ok && (await serverAvailable('postgres')),
  mysql: sdj.ok && (await serverAvailable('mysql')),
};
let h: Harness;
beforeAll(() => {
  if (sdj.ok && (servers.postgres || servers.mysql)) h = buildHarness(sdj.source);
}, BUILD_TIMEOUT_MS + 10_000);
afterAll(() => removeHarness(h));

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ARGS = { to: 'ops@example.com', n: 42, ok: true, tags: ['a', 'é', '漢'], nested: { at: null, f: 1.5 } };
// Columns the contract says the library owns: a raw producer leaves them NULL.
const LIBRARY_OWNED = [
  'locked_by',
  'locked_until',
  'last_heartbeat_at',
  'started_at',
  'completed_at',
  'last_error',
  'dead_lettered_at',
  'dead_letter_reason',
  'previous_status',
  'parent_job_id',
  'root_job_id',
  'fan_out_id',
  'result',
  'trace_context',
  'unique_key',
];

const enqueue = (db: TestDb, args: string[]) => harness<{ id: string }>(h, ['enqueue', '--url', db.url, ...args]).id;
const asDate = (v: unknown) => (v == null ? null : new Date(v as string | Date));

for (const dialect of ['postgres', 'mysql'] as const) {
  describe.skipIf(!servers[dialect])(`Simple Durable Jobs v4.5.1 round trips on ${dialect}`, () => {
    let db: TestDb;
    beforeEach(async () => {
      db = await createTestDb(dialect);
      harness(h, ['migrate', '--url', db.url]);
    });
    afterEach(async () => db?.drop());

    it('a job enqueued through the Go API is a pending row the console can read, and the worker runs it with its args', async () => {
      const id = enqueue(db, ['--type', 'record', '--queue', 'mail', '--priority', '7', '--args', JSON.stringify(ARGS)]);
      expect(id).toMatch(UUID_RE);
      const before = await readJob(db, id);
      // The Go API's default budget is 2 (queue.DefaultJobRetries), not the column default 3.
      expect(before).toMatchObject({
        id,
        type: 'record',
        queue: 'mail',
        status: 'pending',
        priority: 7,
        attempt: 0,
        max_retries: 2,
        args: ARGS,
      });
      if (dialect === 'mysql') expect((before!.raw.id as Buffer).equals(uuidBytes(id))).toBe(true);
      // Ids are UUIDv7 (core.NewID), so they sort by creation time.
      expect(id[14]).toBe('7');
      // The Go API writes '' where a raw producer leaves NULL: the console must read both as unset.
      for (const col of ['tenant', 'previous_status', 'last_error', 'dead_letter_reason', 'locked_by', 'unique_key'])
        expect([col, before!.raw[col]]).toEqual([col, '']);
      for (const col of ['metadata', 'run_at', 'locked_until', 'dead_lettered_at', 'result', 'trace_context', 'parent_job_id'])
        expect([col, before!.raw[col]]).toEqual([col, null]);

      const { summary, runs } = await runWorker(h, db.url, ['mail'], 1);
      expect(summary).toMatchObject({ completed: 1, failed: 0 });
      expect(runs).toEqual([{ handler: 'record', id, queue: 'mail', attempt: 1, args: ARGS }]);
      const after = (await readJob(db, id))!;
      expect(after).toMatchObject({ status: 'completed', attempt: 1 });
      expect(after.raw.completed_at).not.toBeNull();
      expect(after.raw.dead_lettered_at).toBeNull();
      // Completion clears the lease: locked_by is '' (not NULL) from then on.
      expect(after.raw.locked_by).toBe('');
      expect(after.raw.locked_until).toBeNull();
    });

    it('an always-erroring job runs max_retries times in all, then is a dead letter: failed, dead_lettered_at, "max retries exhausted: <error>"', async () => {
      const id = enqueue(db, ['--type', 'always-error', '--queue', 'flaky', '--retries', '2', '--args', '{"k":1}']);
      const { summary, runs } = await runWorker(h, db.url, ['flaky'], 1);
      expect(summary).toMatchObject({ completed: 0, failed: 1 });
      expect(runs.map((r) => [r.handler, r.attempt])).toEqual([
        ['always-error', 1],
        ['always-error', 2],
      ]);
      const row = (await readJob(db, id))!;
      expect(row).toMatchObject({ status: 'failed', attempt: 2, max_retries: 2 });
      expect(row.raw.last_error).toBe('harness: always errors');
      expect(row.raw.dead_letter_reason).toBe('max retries exhausted: harness: always errors');
      expect(asDate(row.raw.dead_lettered_at)).toBeInstanceOf(Date);
      expect(asDate(row.raw.completed_at)).toBeInstanceOf(Date);
      // Dead-lettering does not touch previous_status (still the '' the Go API wrote).
      expect(row.raw.previous_status).toBe('');
    });

    it('a non-retryable failure is a dead letter at once: "non-retryable failure: <error>"', async () => {
      const id = enqueue(db, ['--type', 'fail-permanent', '--queue', 'perm', '--retries', '5', '--args', '{"k":2}']);
      const { summary, runs } = await runWorker(h, db.url, ['perm'], 1);
      expect(summary).toMatchObject({ completed: 0, failed: 1 });
      expect(runs).toHaveLength(1);
      const row = (await readJob(db, id))!;
      expect(row).toMatchObject({ status: 'failed', attempt: 1, max_retries: 5 });
      // jobs.NoRetry(err) wraps the message as "no retry: <err>", and that is what is stored.
      expect(row.raw.last_error).toBe('no retry: harness: permanent failure');
      expect(row.raw.dead_letter_reason).toBe('non-retryable failure: no retry: harness: permanent failure');
      expect(row.raw.dead_lettered_at).not.toBeNull();
    });

    it('a job whose type has no handler is dead-lettered as "non-retryable failure: no handler for <type>"', async () => {
      const id = await rawEnqueue(db, { type: 'nobody-handles-this', args: {}, queue: 'orphans' });
      await runWorker(h, db.url, ['orphans'], 0, 4);
      const row = (await readJob(db, id))!;
      expect(row).toMatchObject({ status: 'failed', attempt: 1 });
      expect(row.raw.dead_letter_reason).toBe('non-retryable failure: no handler for nobody-handles-this');
    });

    it('rows INSERTed by the raw-SQL contract hold only what it names, and the real worker claims and runs them with the same args, the delayed one after its run_at', async () => {
      const runAt = new Date(Date.now() + 2500);
      const now = await rawEnqueue(db, { type: 'record', args: ARGS, queue: 'raw', priority: 1 });
      const later = await rawEnqueue(db, { type: 'record', args: { delayed: true }, queue: 'raw', runAt });
      for (const id of [now, later]) {
        const row = (await readJob(db, id))!;
        expect(row).toMatchObject({ id, status: 'pending', attempt: 0, max_retries: 3, queue: 'raw' });
        for (const col of LIBRARY_OWNED) expect([col, row.raw[col]]).toEqual([col, null]);
        // Defaults fill what the contract leaves out.
        expect(Number(row.raw.fan_out_index)).toBe(0);
        expect(Boolean(row.raw.dq_ready)).toBe(true);
        if (dialect === 'mysql') {
          expect((row.raw.id as Buffer).length).toBe(16);
          expect(row.raw.active_unique_key).toBeNull();
        }
      }
      expect(Math.abs(asDate((await readJob(db, later))!.raw.run_at)!.getTime() - runAt.getTime())).toBeLessThan(2);

      const { summary, runs } = await runWorker(h, db.url, ['raw'], 2);
      expect(summary).toMatchObject({ completed: 2, failed: 0 });
      expect(runs.map((r) => [r.id, r.args])).toEqual([
        [now, ARGS],
        [later, { delayed: true }],
      ]);
      const delayed = (await readJob(db, later))!;
      expect(delayed.status).toBe('completed');
      expect(asDate(delayed.raw.started_at)!.getTime()).toBeGreaterThanOrEqual(runAt.getTime() - 5);
    });

    it('the doc example binds the id as a 36-character string: PostgreSQL takes it, MySQL binary(16) refuses it', async () => {
      const id = '018f6f20-91d4-7b5c-9f8d-f55e7a0a0c44';
      const sql =
        dialect === 'postgres'
          ? `INSERT INTO jobs (id, type, args, queue, priority, status, attempt, max_retries, timeout, determinism, run_at, created_at, updated_at) VALUES ($1, 'record', '\\x7b7d'::bytea, 'doc', 0, 'pending', 0, 3, 0, 0, NULL, NOW(), NOW())`
          : `INSERT INTO jobs (id, type, args, queue, priority, status, attempt, max_retries, timeout, determinism, run_at, created_at, updated_at) VALUES (?, 'record', '{}', 'doc', 0, 'pending', 0, 3, 0, 0, NULL, NOW(6), NOW(6))`;
      if (dialect === 'postgres') {
        await db.query(sql, [id]);
        expect((await readJob(db, id))?.status).toBe('pending');
      } else {
        await expect(db.query(sql, [id])).rejects.toThrow(/Data too long for column 'id'/);
      }
    });

    it('a delayed Go API enqueue stores run_at and dq_ready false until it is due', async () => {
      const id = enqueue(db, ['--type', 'record', '--queue', 'later', '--delay', '1h']);
      const row = (await readJob(db, id))!;
      expect(asDate(row.raw.run_at)!.getTime()).toBeGreaterThan(Date.now() + 59 * 60_000);
      expect(Boolean(row.raw.dq_ready)).toBe(false);
    });

    it('a second Go API enqueue with a live unique key is refused with the library error, and the unique_key is stored', async () => {
      const id = enqueue(db, ['--type', 'record', '--queue', 'u', '--unique', 'invoice-7']);
      const again = runHarness<{ error?: string }>(h, [
        'enqueue',
        '--url',
        db.url,
        '--type',
        'record',
        '--queue',
        'u',
        '--unique',
        'invoice-7',
      ]);
      expect(again.status).toBe(2);
      expect(again.json.error).toBe('jobs: duplicate job with same unique key');
      expect((await readJob(db, id))!.raw.unique_key).toBe('invoice-7');
      if (dialect === 'mysql') expect((await readJob(db, id))!.raw.active_unique_key).toBe('invoice-7');
    });
  });
}
