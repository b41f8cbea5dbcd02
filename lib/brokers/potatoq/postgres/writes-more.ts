import 'server-only';
import type { ActionOutcome, EnqueueRequest, EnqueueResult } from '@/lib/brokers/schema';
import { buildFromRequest, revokedRecord } from '../records';
import { channelFor, type PgNames } from './names';
import type { PgDb, Sql } from './pool';

/**
 * potatoq's `revoke` for a batch in one statement: delete waiting rows (`state != 2`,
 * re-checked by PostgreSQL on rows a claim just updated) and upsert a REVOKED record for
 * every id that was not running, as potatoq does for unknown ids. Unlike potatoq, a task that
 * is running, or that a worker claimed while we were revoking it (it was waiting in our
 * snapshot but the DELETE skipped it), gets no record and is reported `running`: its own
 * result would overwrite the mark, so "revoked" would be a lie. Likewise a task that already
 * finished (a SUCCESS or FAILURE result, no job, no dead letter) keeps its result and is
 * reported `missing`; potatoq would overwrite the result with REVOKED.
 */
export function revokeBatch(n: PgNames, resultExpires: number) {
  return async (sql: Sql, ids: string[]): Promise<ActionOutcome[]> => {
    const rows = await sql<{
      id: string;
      seen: number | null;
      task: string | null;
      deleted: boolean;
      dead: boolean;
      finished: string | null;
    }>(
      `WITH seen AS (SELECT id, state FROM ${n.jobs} WHERE id = ANY($1::text[])),
            del AS (DELETE FROM ${n.jobs} WHERE id = ANY($1::text[]) AND state != 2 RETURNING id, task)
       SELECT i.id, seen.state AS seen, del.task, del.id IS NOT NULL AS deleted,
              EXISTS (SELECT 1 FROM ${n.dead} d WHERE d.id = i.id) AS dead,
              (SELECT r.state FROM ${n.results} r WHERE r.id = i.id AND r.state IN ('SUCCESS', 'FAILURE')) AS finished
       FROM unnest($1::text[]) AS i(id) LEFT JOIN seen USING (id) LEFT JOIN del USING (id)`,
      [ids],
    );
    const now = Date.now() / 1000;
    const out: ActionOutcome[] = [];
    const marks: Array<{ id: string; payload: string }> = [];
    for (const r of rows) {
      if (!r.deleted && r.seen !== null) {
        out.push({
          id: r.id,
          outcome: 'running',
          message:
            r.seen === 2
              ? 'is running; potatoq never revokes running tasks, so nothing was changed'
              : 'a worker claimed it while it was being revoked; it is running, nothing was changed',
        });
        continue;
      }
      if (!r.deleted && !r.dead && r.finished !== null) {
        out.push({ id: r.id, outcome: 'missing', message: `already finished with ${r.finished}; nothing to revoke, its result was kept` });
        continue;
      }
      marks.push({ id: r.id, payload: revokedRecord(r.id, now, r.task) });
      out.push({
        id: r.id,
        outcome: 'ok',
        message: r.deleted
          ? 'removed from the queue and marked REVOKED'
          : r.dead
            ? 'is a dead letter, not waiting: marked REVOKED as potatoq does (the letter stays; discard it to remove it)'
            : 'no waiting task with this id; marked REVOKED anyway, as potatoq does',
      });
    }
    if (marks.length) {
      await sql(
        `INSERT INTO ${n.results} (id, state, payload, expires_at)
         SELECT id, 'REVOKED', payload, now() + make_interval(secs => $3::float8) FROM unnest($1::text[], $2::text[]) AS r(id, payload)
         ON CONFLICT (id) DO UPDATE SET state = EXCLUDED.state, payload = EXCLUDED.payload, expires_at = EXCLUDED.expires_at`,
        [marks.map((m) => m.id), marks.map((m) => m.payload), resultExpires],
      );
    }
    return out;
  };
}

/** potatoq's `purge`: a queue's waiting (ready and scheduled) rows; running rows and dead
 *  letters stay, no results are written, nobody needs waking. */
export async function purgeQueue(db: PgDb, n: PgNames, queue: string): Promise<number> {
  return db.tx(async (sql) => {
    const [r] = await sql<{ n: string }>(
      `WITH d AS (DELETE FROM ${n.jobs} WHERE queue = $1 AND state IN (0, 1) RETURNING 1) SELECT count(*) AS n FROM d`,
      [queue],
    );
    return Number(r?.n ?? 0);
  });
}

/**
 * potatoq's `enqueue`: state 0 with `run_at = to_timestamp(eta)` when the eta is in the
 * future, else state 1 with `run_at = now()` and a `pg_notify` on the queue's channel in the
 * same transaction (only when the row was inserted). The message is built and validated
 * before any connection is used.
 */
export async function enqueueMessage(db: PgDb, n: PgNames, brokerId: string, req: EnqueueRequest): Promise<EnqueueResult> {
  const now = Date.now() / 1000;
  const m = buildFromRequest(req, now);
  const scheduled = m.eta !== null && m.eta > now;
  const priority = Math.max(-32768, Math.min(32767, m.priority));
  const values = `VALUES ($1, $2, $3, ${scheduled ? 0 : 1}, $4, coalesce(to_timestamp($5::float8), now()), $6) ON CONFLICT (id) DO NOTHING`;
  const params = [m.id, m.queue, m.task, priority, scheduled ? m.eta : null, m.json];
  await db.tx(async (sql) => {
    if (scheduled) await sql(`INSERT INTO ${n.jobs} (id, queue, task, state, priority, run_at, payload) ${values}`, params);
    else {
      await sql(
        `WITH ins AS (INSERT INTO ${n.jobs} (id, queue, task, state, priority, run_at, payload) ${values} RETURNING queue) SELECT pg_notify($7, '') FROM ins`,
        [...params, channelFor(m.queue)],
      );
    }
  });
  return { brokerId, id: m.id, queue: m.queue, task: m.task, state: scheduled ? 'scheduled' : 'ready', payload: m.json };
}
