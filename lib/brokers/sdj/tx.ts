import 'server-only';
import { isLockTimeout, isRetryable, isUniqueViolation, type SdjDb, type SdjQuery } from './db';
import { requireId } from './jobs';
import type { SdjOutcome, SdjOutcomeKind } from './model';

// What every SDJ write shares: one transaction per id (a lock one id waits for never holds up the
// others, and each id gets its own outcome), retried like the library retries its own writes
// (serialization failures and deadlocks), and the row-lock wait turned into "held by another
// transaction" instead of an error.

export const outcome = (id: string, kind: SdjOutcomeKind, message: string): SdjOutcome => ({ id, outcome: kind, message });

/** Thrown inside a write to end its transaction with this outcome (rolled back). */
export class Refusal extends Error {
  constructor(
    readonly kind: SdjOutcomeKind,
    message: string,
  ) {
    super(message);
  }
}

export const HELD =
  'another transaction holds this job (a worker claiming or finishing it, or another console): nothing changed; try again';

export async function perId(
  db: SdjDb,
  ids: readonly string[],
  write: (q: SdjQuery, id: string) => Promise<SdjOutcome>,
  opts: { serializable?: boolean; onUnique?: (id: string, e: unknown) => SdjOutcome } = {},
): Promise<SdjOutcome[]> {
  const out: SdjOutcome[] = [];
  for (const raw of ids) {
    let id: string;
    try {
      id = requireId(raw);
    } catch {
      out.push(outcome(String(raw).slice(0, 64), 'invalid', 'not a job id (a UUID)'));
      continue;
    }
    for (let attempt = 1; ; attempt++) {
      try {
        out.push(await db.tx((q) => write(q, id), { serializable: opts.serializable }));
        break;
      } catch (e) {
        if (isRetryable(e) && attempt < 5) continue;
        if (e instanceof Refusal) out.push(outcome(id, e.kind, e.message));
        else if (isLockTimeout(e)) out.push(outcome(id, 'conflict', HELD));
        else if (isUniqueViolation(e) && opts.onUnique) out.push(opts.onUnique(id, e));
        else if (isRetryable(e))
          out.push(
            outcome(
              id,
              'conflict',
              'the database kept aborting the write as a conflict with concurrent writes: nothing changed; try again',
            ),
          );
        else throw e;
        break;
      }
    }
  }
  return out;
}

/** `IN (?, ?, …)` for a list of values. */
export const inList = (n: number) => `(${new Array(n).fill('?').join(', ')})`;
