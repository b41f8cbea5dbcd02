import 'server-only';
import type { TaskCall } from '@/lib/brokers/types';
import { callOfMessage } from '../calls';
import { MOVED_META, revokedRecord } from '../records';
import type { PgNames } from './names';
import type { PgDb, Sql } from './pool';

// potatoq's waiting rows (SCHEDULED 0, READY 1; RUNNING 2 is a worker's) leaving as calls
// (lib/brokers/move-waiting.ts). The take is one transaction: the DELETE of the exact waiting
// row (same id, same message, not claimed: PostgreSQL re-checks `state` on a row a worker's
// claim just updated, so a claimed row is skipped) and the REVOKED record with the console's
// mark, as `potatoq revoke` stores it: find-by-id says where it went, and a stopped move can
// tell it took the task.

export async function peekWaiting(sql: Sql, n: PgNames, id: string): Promise<{ call: TaskCall; claim: string } | null> {
  const [r] = await sql<{ queue: string; payload: string; run_epoch: number }>(
    `SELECT queue, payload, extract(epoch FROM run_at)::float8 AS run_epoch FROM ${n.jobs} WHERE id = $1 AND state IN (0, 1)`,
    [id],
  );
  if (!r) return null;
  return { call: { ...callOfMessage(id, r.payload, r.queue), etaMs: Math.round(Number(r.run_epoch) * 1000) }, claim: r.payload };
}

export function takeWaiting(db: PgDb, n: PgNames, id: string, claim: string, resultExpires: number): Promise<boolean> {
  return db.tx(async (sql) => {
    const [del] = await sql<{ task: string }>(`DELETE FROM ${n.jobs} WHERE id = $1 AND state IN (0, 1) AND payload = $2 RETURNING task`, [
      id,
      claim,
    ]);
    if (!del) return false;
    await sql(
      `INSERT INTO ${n.results} (id, state, payload, expires_at)
       VALUES ($1, 'REVOKED', $2, now() + make_interval(secs => $3::float8))
       ON CONFLICT (id) DO UPDATE SET state = EXCLUDED.state, payload = EXCLUDED.payload, expires_at = EXCLUDED.expires_at`,
      [id, revokedRecord(id, Date.now() / 1000, del.task, MOVED_META), resultExpires],
    );
    return true;
  });
}

export async function tookWaiting(sql: Sql, n: PgNames, id: string): Promise<boolean> {
  const [r] = await sql<{ payload: string }>(`SELECT payload FROM ${n.results} WHERE id = $1 AND state = 'REVOKED'`, [id]);
  return r !== undefined && String(r.payload).includes(MOVED_META);
}
