// Test helpers for one id's move (not shipped code): two fake brokers whose steps the tests
// replace, for lib/brokers/move-one.test.ts and move-journal.test.ts.
import { afterEach, beforeEach, vi } from 'vitest';
import { openStateDbForTests } from '@/lib/bulk/store-open';
import type { SqlRunner } from '@/lib/bulk/store-sql';
import { createSqlMoveJournal, type MoveJournal } from '@/lib/brokers/move-journal';
import type { MoveSteps } from '@/lib/brokers/move-one';
import type { ActionOutcome } from '@/lib/brokers/schema';
import type { TaskCall } from '@/lib/brokers/types';

export const call = (id: string, ignoreResult: boolean | null = false): TaskCall => ({
  id,
  task: 't',
  queue: 'q',
  args: { k: 'list', items: [] },
  kwargs: { k: 'dict', entries: [] },
  priority: null,
  expiresMs: null,
  ignoreResult,
  rootId: null,
  parentId: null,
});
export const never = () => new Promise<never>(() => {});

/** Two brokers: letters here, what reached the target there, each step replaceable. */
export function brokers() {
  const letters = new Set<string>(['a']);
  const sent: string[] = [];
  /** What the target remembers of the ids it got (false: the task ran and left no trace). */
  const memory = { remembers: true };
  const steps = {
    from: { id: 'src', name: 'Source' },
    to: { id: 'dst', name: 'Target' } as MoveSteps['to'],
    read: vi.fn(async (id: string) => (letters.has(id) ? call(id) : null)),
    enqueue: vi.fn(async (c: TaskCall): Promise<{ outcome: 'ok' | 'already'; message: string }> => {
      if (memory.remembers && sent.includes(c.id)) return { outcome: 'already' as const, message: 'waiting there' };
      sent.push(c.id);
      return { outcome: 'ok' as const, message: 'enqueued' };
    }),
    remove: vi.fn(async (id: string): Promise<ActionOutcome> => {
      if (!letters.delete(id)) return { id, outcome: 'missing', message: 'gone' };
      return { id, outcome: 'ok', message: 'discarded' };
    }),
    seen: vi.fn(async (_broker: string, id: string) =>
      memory.remembers && sent.includes(id) ? 'a task with this id is already waiting here' : null,
    ),
    nameOf: (id: string) => (id === 'dst' ? 'Target' : id),
  } satisfies MoveSteps;
  return {
    letters,
    sent,
    steps,
    set remembers(v: boolean) {
      memory.remembers = v;
    },
  };
}

/** The real journal tables (SQLite in memory), fresh for each test; logged journal errors silenced. */
export function withJournalEachTest(): { readonly db: SqlRunner; readonly journal: MoveJournal } {
  let db: SqlRunner | undefined;
  let journal: MoveJournal | undefined;
  beforeEach(async () => {
    db = await openStateDbForTests(':memory:');
    journal = createSqlMoveJournal(db);
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await db?.close();
  });
  return {
    get db() {
      return db!;
    },
    get journal() {
      return journal!;
    },
  };
}
