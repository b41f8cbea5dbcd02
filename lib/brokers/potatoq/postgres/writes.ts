import 'server-only';
import { decodePayload, reencodeWithoutEta } from '@/lib/potatoq';
import type { ActionOutcome, ActionResult } from '@/lib/brokers/schema';
import { actionResult } from '@/lib/brokers/kit/results';
import { channelFor, type PgNames } from './names';
import type { PgDb, Sql } from './pool';
import { transformed } from '../edit-replay';

/** Ids per transaction: big enough for thousands of ids a second, small enough that each
 *  transaction holds its row locks for milliseconds. */
export const BATCH = 500;

const MISSING = 'not in the dead letters (already replayed or discarded?)';

/** potatoq clamps priorities to smallint; a non-integer is rounded as PostgreSQL would. */
export function clampPriority(p: string | null | undefined): number {
  const v = p === 'True' || p === 'true' ? 1 : p === 'False' || p === 'false' ? 0 : Number(p ?? 0);
  if (!Number.isFinite(v)) return 0;
  return Math.max(-32768, Math.min(32767, Math.round(v)));
}

/**
 * Runs `batch` over the ids (deduplicated, sorted so that concurrent consoles lock rows in
 * the same order and cannot deadlock each other), one transaction per BATCH ids, up to
 * `parallel` transactions at once (the write pool's size). A batch
 * that fails as a whole marks its ids `error` without hiding what earlier batches committed.
 */
export async function runBatches(
  db: PgDb,
  action: ActionResult['action'],
  brokerId: string,
  ids: string[],
  batch: (sql: Sql, ids: string[]) => Promise<ActionOutcome[]>,
  describe: (e: unknown) => string,
  parallel = 2,
): Promise<ActionResult> {
  const unique = [...new Set(ids)].sort();
  const parts: string[][] = [];
  for (let i = 0; i < unique.length; i += BATCH) parts.push(unique.slice(i, i + BATCH));
  const results: ActionOutcome[][] = new Array(parts.length);
  // Batches hold disjoint ids, so two can run at once: one decodes payloads in JS while
  // the other waits on PostgreSQL.
  let next = 0;
  async function worker(): Promise<void> {
    for (let k = next++; k < parts.length; k = next++) {
      const part = parts[k]!;
      try {
        results[k] = await db.tx((sql) => batch(sql, part));
      } catch (e) {
        const message = describe(e);
        results[k] = part.map((id) => ({ id, outcome: 'error' as const, message }));
      }
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(parallel, parts.length)) }, worker));
  return actionResult(action, brokerId, unique, results.flat());
}

/**
 * The columns potatoq's `_rows` takes from a re-encoded message. The re-encoder's output is
 * plain compact JSON, so the native parser reads its top level; anything unusual (NaN in the
 * arguments, a non-string task) goes through the exact decoder.
 */
function topFields(json: string): { id: string; queue: string; task: string; priority: number } | null {
  try {
    const v = JSON.parse(json) as Record<string, unknown>;
    const { id, task, queue = 'default', priority = 0 } = v;
    if (typeof id === 'string' && typeof task === 'string' && typeof queue === 'string' && typeof priority === 'number') {
      return { id, task, queue, priority: clampPriority(String(priority)) };
    }
  } catch {
    // not strict JSON: fall through
  }
  const m = decodePayload(json, { maxDepth: 1, maxItems: 1, maxString: 1 });
  return m.kind === 'potatoq' ? { id: m.id, task: m.task, queue: m.queue ?? 'default', priority: clampPriority(m.priority) } : null;
}

/**
 * potatoq's `requeue_dead` for a batch, in one transaction of two statements: lock the letters
 * (`FOR UPDATE`) and re-encode them without `eta` here, then one statement inserts the ready
 * jobs with `ON CONFLICT (id) DO NOTHING`, deletes only the letters whose job went in (and
 * their results) and `pg_notify`s each queue that got one. A letter whose id is already a
 * waiting or running job is kept and reported (potatoq would delete it and lose the task); an
 * undecodable payload is kept too.
 */
export function replayBatch(n: PgNames, transform?: (payload: string) => string) {
  return async (sql: Sql, ids: string[]): Promise<ActionOutcome[]> => {
    const letters = await sql<{ id: string; payload: string }>(
      `SELECT id, payload FROM ${n.dead} WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE`,
      [ids],
    );
    const out = new Map<string, ActionOutcome>();
    const rows: Array<{ letter: string; id: string; queue: string; task: string; priority: number; payload: string }> = [];
    for (const l of letters) {
      const re = transform ? transformed(transform, l.payload) : reencodeWithoutEta(l.payload);
      const m = re.ok ? topFields(re.json) : null;
      if (!re.ok || !m) {
        const why = !re.ok ? re.reason : 'not a potatoq message';
        out.set(l.id, { id: l.id, outcome: 'invalid', message: `potatoq can't run this payload, so the letter was kept: ${why}` });
        continue;
      }
      rows.push({ letter: l.id, ...m, payload: re.json });
    }
    // Two letters carrying one task id: only the first (in id order) is replayed.
    const first = new Map<string, (typeof rows)[number]>();
    for (const r of rows) if (!first.has(r.id)) first.set(r.id, r);
    const fresh = [...first.values()];
    // One statement, one round trip: insert the ready jobs, then delete exactly the letters
    // (and their results) whose job went in, and wake each queue that got one.
    const got = fresh.length
      ? await sql<{ done: string[] }>(
          `WITH r AS (SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::text[], $7::text[])
                        AS r(letter, id, queue, task, priority, payload, channel)),
                ins AS (INSERT INTO ${n.jobs} (id, queue, task, state, priority, run_at, payload)
                        SELECT id, queue, task, 1, priority, now(), payload FROM r
                        ON CONFLICT (id) DO NOTHING RETURNING id),
                gone AS (DELETE FROM ${n.dead} d USING ins JOIN r USING (id) WHERE d.id = r.letter RETURNING d.id),
                res AS (DELETE FROM ${n.results} WHERE id IN (SELECT id FROM gone))
           SELECT (SELECT coalesce(array_agg(id), '{}') FROM gone) AS done,
                  (SELECT count(pg_notify(c, '')) FROM (SELECT DISTINCT r.channel AS c FROM ins JOIN r USING (id)) q) AS woke`,
          [
            fresh.map((r) => r.letter),
            fresh.map((r) => r.id),
            fresh.map((r) => r.queue),
            fresh.map((r) => r.task),
            fresh.map((r) => r.priority),
            fresh.map((r) => r.payload),
            fresh.map((r) => channelFor(r.queue)),
          ],
        )
      : [];
    const done = new Set(got[0]?.done ?? []);
    for (const r of rows) {
      if (done.has(r.letter)) out.set(r.letter, { id: r.letter, outcome: 'ok', message: 'requeued as ready' });
      else {
        out.set(r.letter, {
          id: r.letter,
          outcome: 'conflict',
          message: `a waiting or running task with id ${r.id} already exists; the letter was kept`,
        });
      }
    }
    return ids.map((id) => out.get(id) ?? { id, outcome: 'missing', message: MISSING });
  };
}

/** Deletes the letters; `forgetResult` (a move's removal) also their results, in the same
 *  statement, as a replay does. */
export function discardBatch(n: PgNames, forgetResult = false) {
  return async (sql: Sql, ids: string[]): Promise<ActionOutcome[]> => {
    const rows = forgetResult
      ? await sql<{ id: string; forgot: boolean }>(
          `WITH gone AS (DELETE FROM ${n.dead} WHERE id = ANY($1::text[]) RETURNING id),
                res AS (DELETE FROM ${n.results} WHERE id IN (SELECT id FROM gone) RETURNING id)
           SELECT gone.id, res.id IS NOT NULL AS forgot FROM gone LEFT JOIN res USING (id)`,
          [ids],
        )
      : await sql<{ id: string; forgot: boolean }>(`DELETE FROM ${n.dead} WHERE id = ANY($1::text[]) RETURNING id, false AS forgot`, [ids]);
    const gone = new Map(rows.map((r) => [r.id, r.forgot]));
    return ids.map((id) =>
      gone.has(id)
        ? { id, outcome: 'ok', message: gone.get(id) ? 'dead letter and its result deleted' : 'dead letter deleted' }
        : { id, outcome: 'missing', message: MISSING },
    );
  };
}
