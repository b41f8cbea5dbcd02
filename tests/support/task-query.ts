// A task list query as an adapter's `listTasks` receives it: the service decides the state of a
// request that names none (the state that plays `waiting`), so a test calling an adapter directly
// names it, in the adapter's own words.
import { ZTaskListQuery, type TaskListQuery } from '@/lib/brokers/schema';

const ZAdapterQuery = ZTaskListQuery.required({ state: true });

/** `q` parsed as a list request that names its state (refused without one). */
export const taskQuery = (q: unknown): TaskListQuery => ZAdapterQuery.parse(q);
