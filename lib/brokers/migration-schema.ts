// The migration view's answer (GET /api/brokers/:broker/migration?to=): client-safe shapes.
import { z } from 'zod';

/** A count from a bounded read: `atLeast` when the read stopped at its cap (there may be more);
 *  null `n` when that side could not be read (its side's `why`). */
export const ZBoundedCount = z.strictObject({ n: z.number().int().nullable(), atLeast: z.boolean() });
export type BoundedCount = z.infer<typeof ZBoundedCount>;

export const ZMigrationRow = z
  .strictObject({
    /** The task name on the source; null for a name seen only on the target. */
    task: z.string().nullable(),
    /** Its name on the target: the mapping's `targetTask`, else the same name. */
    targetTask: z.string(),
    mapped: z.boolean().describe('whether a call mapping of this name to the target exists'),
    source: z.strictObject({ waiting: ZBoundedCount, dead: ZBoundedCount }),
    target: z.strictObject({
      waiting: ZBoundedCount,
      dead: ZBoundedCount,
      noHandler: ZBoundedCount.nullable().describe(
        "dead letters no target worker had a handler for; null: the target's system does not tell",
      ),
    }),
    moved: z.strictObject({ ok: z.number().int(), already: z.number().int() }).describe('moves in the ledger (within the listed ones)'),
  })
  .meta({ id: 'MigrationRow' });
export type MigrationRow = z.infer<typeof ZMigrationRow>;

export const ZSideScope = z.strictObject({
  id: z.string(),
  name: z.string(),
  /** What was read, in words (caps, windows); why a count is missing. */
  notes: z.array(z.string()),
});

export const ZMoveEntry = z.strictObject({
  sourceId: z.string(),
  targetId: z.string(),
  task: z.string().nullable(),
  outcome: z.string(),
  at: z.string(),
  who: z.string(),
  auditId: z.string().nullable(),
});

export const ZMoveAction = z.strictObject({
  auditId: z.string(),
  at: z.string(),
  who: z.string(),
  outcome: z.string(),
  succeeded: z.number().int().nullable(),
  failed: z.number().int().nullable(),
  reason: z.string().nullable(),
  failures: z.array(z.strictObject({ id: z.string(), outcome: z.string(), message: z.string() })),
});

export const ZMigrationView = z
  .strictObject({
    source: ZSideScope,
    target: ZSideScope,
    /** Whether the source's letters can move to the target, and why not. */
    pairing: z.strictObject({ on: z.boolean(), words: z.string() }),
    rows: z.array(ZMigrationRow),
    moves: z.strictObject({ entries: z.array(ZMoveEntry), capped: z.boolean() }),
    actions: z.array(ZMoveAction).describe("the move actions from the source's audit trail to this target, newest first"),
  })
  .meta({ id: 'MigrationView' });
export type MigrationView = z.infer<typeof ZMigrationView>;
