import 'server-only';
import { getStateDb } from '@/lib/bulk/store-open';
import type { SqlRunner } from '@/lib/state/sql';
import { ConsoleError } from './errors';
import type { ActionOutcome } from './schema';

/**
 * The moves ledger: each finished move of a task between brokers ("letter L of broker A became
 * task J on broker B"), in the console's state store. The move journal (move-journal.ts) says
 * only that a move began; its row goes once the move finished, so this is what lets either
 * side's task page say where the work went or came from, and the migration view list the moves
 * done. Written after the move, never in its way: a ledger that cannot be written is logged and
 * the move's outcome stands (the audit trail has it too). Kept RETENTION_DAYS, pruned on write.
 */

export interface MoveRecord {
  source: string;
  sourceId: string;
  target: string;
  /** The task's id on the target (the same id where the target keeps it). */
  targetId: string;
  /** `ok` (moved) or `already` (it was there: nothing created, the letter removed). */
  outcome: string;
  /** The task's name on the source, where the move read it. */
  task: string | null;
  at: string;
  who: string;
  auditId: string | null;
  message: string;
}

export interface MovesLedger {
  record(rows: MoveRecord[]): Promise<void>;
  /** Where task `id` of broker `broker` went (as source) and came from (as target), newest first. */
  of(broker: string, id: string): Promise<{ to: MoveRecord[]; from: MoveRecord[] }>;
  /** The newest moves from `source` to `target`, at most `limit`, and whether there were more. */
  pair(source: string, target: string, limit: number): Promise<{ moves: MoveRecord[]; capped: boolean }>;
}

export const RETENTION_DAYS = 90;
const COLS = 'source, source_id, target, target_id, outcome, task, at, who, audit_id, message';
type Row = {
  source: string;
  source_id: string;
  target: string;
  target_id: string;
  outcome: string;
  task: string | null;
  at: string;
  who: string;
  audit_id: string | null;
  message: string;
};
const fromRow = (r: Row): MoveRecord => ({
  source: r.source,
  sourceId: r.source_id,
  target: r.target,
  targetId: r.target_id,
  outcome: r.outcome,
  task: r.task,
  at: r.at,
  who: r.who,
  auditId: r.audit_id,
  message: r.message,
});

export function createSqlMovesLedger(db: Pick<SqlRunner, 'run' | 'all'>, now = () => Date.now()): MovesLedger {
  return {
    async record(rows) {
      for (const m of rows)
        await db.run(
          `INSERT INTO console_moves (${COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (source, source_id, target, target_id) DO UPDATE SET outcome = excluded.outcome,
           task = COALESCE(excluded.task, console_moves.task), at = excluded.at, who = excluded.who,
           audit_id = excluded.audit_id, message = excluded.message`,
          [m.source, m.sourceId, m.target, m.targetId, m.outcome, m.task, m.at, m.who.slice(0, 500), m.auditId, m.message.slice(0, 2000)],
        );
      if (rows.length)
        await db.run('DELETE FROM console_moves WHERE at < ?', [new Date(now() - RETENTION_DAYS * 86_400_000).toISOString()]);
    },
    async of(broker, id) {
      const [to, from] = await Promise.all([
        db.all<Row>(`SELECT ${COLS} FROM console_moves WHERE source = ? AND source_id = ? ORDER BY at DESC LIMIT 20`, [broker, id]),
        db.all<Row>(`SELECT ${COLS} FROM console_moves WHERE target = ? AND target_id = ? ORDER BY at DESC LIMIT 20`, [broker, id]),
      ]);
      return { to: to.map(fromRow), from: from.map(fromRow) };
    },
    async pair(source, target, limit) {
      const rows = await db.all<Row>(
        `SELECT ${COLS} FROM console_moves WHERE source = ? AND target = ? ORDER BY at DESC, source_id LIMIT ?`,
        [source, target, limit + 1],
      );
      return { moves: rows.slice(0, limit).map(fromRow), capped: rows.length > limit };
    },
  };
}

/** The ledger rows of a move's finished ids (`ok`, `already`). */
export function movesOf(
  pair: { source: string; target: string },
  done: ActionOutcome[],
  by: { who: string; auditId: string | null; tasks: ReadonlyMap<string, string> },
): MoveRecord[] {
  const at = new Date().toISOString();
  return done
    .filter((o) => o.outcome === 'ok' || o.outcome === 'already')
    .map((o) => ({
      ...pair,
      sourceId: o.id,
      targetId: o.taskId ?? o.id,
      outcome: o.outcome,
      task: by.tasks.get(o.id) ?? null,
      at,
      who: by.who,
      auditId: by.auditId,
      message: o.message,
    }));
}

const KEY = Symbol.for('potatoq.console.movesLedger');
type Global = typeof globalThis & { [KEY]?: MovesLedger };

export async function getMovesLedger(): Promise<MovesLedger> {
  const g = globalThis as Global;
  if (g[KEY]) return g[KEY];
  try {
    return createSqlMovesLedger(await getStateDb());
  } catch (e) {
    throw new ConsoleError('Internal', `the moves ledger (in the console's state store) cannot be opened: ${String(e)}`);
  }
}

/** After a move: its finished ids written to the ledger; a failure is logged, never the move's. */
export async function recordMoves(rows: MoveRecord[]): Promise<void> {
  if (!rows.length) return;
  try {
    await (await getMovesLedger()).record(rows);
  } catch (e) {
    console.error(JSON.stringify({ event: 'console.moves-ledger-error', message: String(e), n: rows.length }));
  }
}
