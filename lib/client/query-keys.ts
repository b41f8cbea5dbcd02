// Query keys shared by server prefetch and client polling; the same key on both sides makes
// the hydrated data the first render of the live query.

export interface TaskFilters {
  /** One of the broker's declared states. */
  state: string;
  queue?: string;
  task?: string;
  id?: string;
  q?: string;
  /** Enqueued in this range, as the URL has it (a duration stays relative: each poll reads it again). */
  since?: string;
  until?: string;
}

export interface DeadFilters {
  queue?: string;
  task?: string;
  id?: string;
  q?: string;
  group?: string;
  /** A time range as the URL has it (a duration ago stays relative: each poll reads it again). */
  since?: string;
  until?: string;
}

/** Drops empty filter values so "" and undefined share a cache entry. */
function clean<T extends object>(f: T): T {
  return Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined && v !== '')) as T;
}

/** The results list's filter as the URL has it (a range as written: a duration stays relative). */
export interface ResultFilters {
  status?: string;
  since?: string;
  until?: string;
}

export const PAGE_SIZE = 50;

export const qk = {
  brokers: () => ['brokers'] as const,
  overviewAll: () => ['overview-all'] as const,
  overview: (b: string) => ['broker', b, 'overview'] as const,
  queuePage: (b: string, search: string, offset: number) => ['broker', b, 'queue-page', search, offset] as const,
  tasks: (b: string, f: TaskFilters) => ['broker', b, 'tasks', clean(f)] as const,
  task: (b: string, id: string) => ['broker', b, 'task', id] as const,
  dead: (b: string, f: DeadFilters) => ['broker', b, 'dead', clean(f)] as const,
  deadGroups: (b: string, queue?: string) => ['broker', b, 'dead-groups', queue ?? ''] as const,
  deadOne: (b: string, id: string) => ['broker', b, 'dead-one', id] as const,
  workers: (b: string) => ['broker', b, 'workers'] as const,
  diagnosis: (b: string) => ['broker', b, 'diagnosis'] as const,
  results: (b: string, f: ResultFilters) => ['broker', b, 'results', clean(f)] as const,
  taskNames: (b: string) => ['broker', b, 'task-names'] as const,
};
