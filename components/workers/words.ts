import type { WorkersDecl } from '@/lib/brokers/schema';

// The Workers page's words: the system's own (its adapter's `model.workers`), never another
// system's heartbeats or commands. Without a declaration they are neutral.

export interface WorkersWords {
  /** Under the title: how the console knows this system's workers. */
  known: string;
  /** When none is listed, with the system's own command to start one where it has one. */
  empty: string;
  /** The time column's header. */
  seen: string;
}

export function workersWords(decl: WorkersDecl | undefined): WorkersWords {
  if (!decl) return { known: 'Workers as this system reports them.', empty: 'No workers are known.', seen: 'Seen' };
  return { known: decl.known, empty: decl.start ? `${decl.none} Start one with \`${decl.start}\`.` : decl.none, seen: decl.seen };
}
