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

// A call's Python values hold what JSON cannot (a timedelta's bigint, bytes, NaN): tagged here,
// untagged on the way back, so the call sent after a crash is the one read before it.
const encodeCall = (call: TaskCall) =>
  JSON.stringify(call, (_k, v: unknown) => {
    if (typeof v === 'bigint') return { $big: v.toString() };
    if (v instanceof Uint8Array) return { $b64: Buffer.from(v).toString('base64') };
    if (typeof v === 'number' && !Number.isFinite(v)) return { $num: String(v) };
    return v;
  });
const decodeCall = (text: string) =>
  JSON.parse(text, (_k, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      if (typeof o.$big === 'string') return BigInt(o.$big);
      if (typeof o.$b64 === 'string') return new Uint8Array(Buffer.from(o.$b64, 'base64'));
      if (typeof o.$num === 'string') return Number(o.$num);
    }
    return v;
  }) as TaskCall;

type Stored = { move_id: string; call_json: string; claim: string };

export function createSqlMoveHeld(db: Omit<SqlRunner, 'batch' | 'close'>): MoveHeld {
  return {
    async hold(source, h) {
      await db.run(
        `INSERT INTO console_move_held (source, id, move_id, call_json, claim) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (source, id) DO UPDATE SET move_id = excluded.move_id, call_json = excluded.call_json, claim = excluded.claim`,
        [source, h.call.id, h.moveId, encodeCall(h.call), h.claim],
      );
    },
    async get(source, id) {
      const r = await db.all<Stored>('SELECT move_id, call_json, claim FROM console_move_held WHERE source = ? AND id = ?', [source, id]);
      const row = r[0];
      return row ? { moveId: row.move_id, call: decodeCall(row.call_json), claim: row.claim } : null;
    },
    async drop(source, id) {
      await db.run('DELETE FROM console_move_held WHERE source = ? AND id = ?', [source, id]);
    },
  };
}

export async function getMoveHeld(): Promise<MoveHeld> {
  return createSqlMoveHeld(await getStateDb());
}
