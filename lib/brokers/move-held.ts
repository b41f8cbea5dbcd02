import 'server-only';
import { getStateDb } from '@/lib/bulk/store-open';
import type { SqlRunner } from '@/lib/state/sql';
import type { TaskCall } from './types';

/**
 * The calls of waiting tasks a move has taken, or is about to take, from their source
 * (lib/brokers/move-waiting-one.ts), in the console's state store beside the move journal. A
 * waiting task leaves the source before it reaches the target (so no worker there can also get
 * it), so between those two steps this row is the only place it is kept: written, and committed,
 * before the take; deleted once the task is on the target. Tied to one attempt (`moveId`): a
 * later attempt that takes the journal row over reads it, and sends the same call again.
 */

export interface HeldCall {
  moveId: string;
  call: TaskCall;
  /** What the source needs to remove exactly this message (its `peekWaiting` claim). */
  claim: string;
}

export interface MoveHeld {
  hold(source: string, h: HeldCall): Promise<void>;
  get(source: string, id: string): Promise<HeldCall | null>;
  drop(source: string, id: string): Promise<void>;
}

type Stored = { move_id: string; call: string; claim: string };

export function createSqlMoveHeld(db: Omit<SqlRunner, 'batch' | 'close'>): MoveHeld {
  return {
    async hold(source, h) {
      await db.run(
        `INSERT INTO console_move_held (source, id, move_id, call, claim) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (source, id) DO UPDATE SET move_id = excluded.move_id, call = excluded.call, claim = excluded.claim`,
        [source, h.call.id, h.moveId, JSON.stringify(h.call), h.claim],
      );
    },
    async get(source, id) {
      const r = await db.all<Stored>('SELECT move_id, call, claim FROM console_move_held WHERE source = ? AND id = ?', [source, id]);
      const row = r[0];
      return row ? { moveId: row.move_id, call: JSON.parse(row.call) as TaskCall, claim: row.claim } : null;
    },
    async drop(source, id) {
      await db.run('DELETE FROM console_move_held WHERE source = ? AND id = ?', [source, id]);
    },
  };
}

export async function getMoveHeld(): Promise<MoveHeld> {
  return createSqlMoveHeld(await getStateDb());
}
