import 'server-only';
import { sightingsOf } from './enqueue-names';
import { ConsoleError } from './errors';
import { getConfig } from '@/lib/config';
import { findBrokerConfig, getAdapter } from './registry';
import type {
  BrokerFind,
  DeadDetail,
  DeadHistogram,
  DeadHistogramQuery,
  DeadFilter,
  DeadGroupsQuery,
  DeadListQuery,
  FoundItem,
  ResultListQuery,
  TaskListRequest,
} from './schema';
import { DEFAULT_OVERDUE_SECONDS, STUCK_CHECKS, capFlags, defaultState, listingOf, type Diagnosis } from './dto';
import { checkRange } from './service-range';
import type { FamilyQuery, TaskFamily } from './family/schema';
import { NUL, READ_ONLY_WHY, hasNul, read, shared, toConsoleError, withTimeout, writeTimeoutMs } from './service-core';
import { NO_FAMILY_WHY } from './service-overview';

// The broker service's reads: tasks, dead letters, results, families, workers, diagnosis.

/** One page of a declared state's tasks; without a state, the broker's own default (the state
 *  that plays `waiting`, else its first: `defaultState`), so no state name is assumed here. */
export const listTasks = (brokerId: string, req: TaskListRequest) =>
  shared(brokerId, 'task list', req, async (a) => {
    // (An adapter without a model is a test double: nothing to check its state against.)
    const states = a.model ? a.model.states : null;
    const state = req.state ?? (states && defaultState(states)?.key) ?? '';
    if (states && !states.some((s) => s.key === state)) {
      const known = states.map((s) => s.key).join(', ');
      throw new ConsoleError('InvalidInput', `this broker has no "${state}" state (${known})`, { state: `one of ${known}` });
    }
    // A declared state is listed only where its own capability (`list:<key>`) is on.
    const cap = listingOf(await a.capabilities(), state);
    if (!cap.on) throw new ConsoleError('Unsupported', cap.why ?? `this broker cannot list its "${state}" tasks`);
    await checkRange(a, req, 'taskRange');
    return a.listTasks({ ...req, state });
  });
export async function getTask(brokerId: string, id: string) {
  const t = await shared(brokerId, 'task detail', id, (a) => a.getTask(id));
  if (!t) throw new ConsoleError('NotFound', `task ${id} is not waiting or running in this broker`);
  return t;
}
export const listDead = (brokerId: string, q: DeadListQuery) =>
  shared(brokerId, 'dead-letter list', q, async (a) => {
    await checkRange(a, q, 'deadRange');
    return a.listDead(q);
  });
/** Every matching dead letter's id in one pass where the adapter has one (`deadIds`), else null
 *  (page `listDead`). A bulk job's snapshot: it may walk a whole DLQ, so the write timeout bounds it. */
export function deadIds(brokerId: string, q: DeadFilter, cap: number): Promise<{ ids: string[]; capped: boolean } | null> {
  if (hasNul(q)) return Promise.reject(NUL());
  return withTimeout('dead-letter snapshot', writeTimeoutMs(), async () => {
    const a = getAdapter(brokerId);
    await checkRange(a, q, 'deadRange');
    return a.deadIds ? a.deadIds(q, cap) : null;
  });
}
export const deadGroups = (brokerId: string, q: DeadGroupsQuery) =>
  shared(brokerId, 'dead-letter groups', q, async (a) => {
    await checkRange(a, q, 'deadRange');
    return a.deadGroups(q);
  });
export async function getDead(brokerId: string, id: string): Promise<DeadDetail> {
  const d = await shared(brokerId, 'dead letter', id, (a) => a.getDead(id));
  if (!d) throw new ConsoleError('NotFound', `dead letter ${id} is not in this broker`);
  return d;
}
/** Dead letters per time bucket by their died time (trend charts); Unsupported, with why, where
 *  the adapter can't say when its letters died. */
export const deadHistogram = (brokerId: string, q: DeadHistogramQuery): Promise<DeadHistogram> =>
  shared(brokerId, 'dead-letter trend', q, (a) => {
    if (!a.deadHistogram) throw new ConsoleError('Unsupported', "this system's adapter does not report when its dead letters died");
    return a.deadHistogram(q);
  });

/** Task `id`'s family from any member; Unsupported (with the adapter's why) where the system
 *  has none, NotFound when no task with this id is here and none names it. */
export async function getFamily(brokerId: string, id: string, q: FamilyQuery): Promise<TaskFamily> {
  const f = await shared(brokerId, 'task family', { id, q }, async (a) => {
    // The adapter's own reason first (QueueFlow's), the console's where it reads none.
    const cap = (await a.capabilities()).family ?? { on: false };
    if (!cap.on) throw new ConsoleError('Unsupported', cap.why ?? NO_FAMILY_WHY);
    if (!a.family) throw new ConsoleError('Unsupported', NO_FAMILY_WHY);
    return a.family(id, q);
  });
  if (!f) throw new ConsoleError('NotFound', `no task ${id} is in this broker, and no task names it as its root`);
  return f;
}

/** A task's stored result record (finished, failed, revoked); null when none is stored. */
export const getResult = (brokerId: string, id: string) => shared(brokerId, 'result', id, (a) => a.getResult(id));

/**
 * Where an id is in one broker: waiting or running, dead, or finished (its result). The three
 * lookups run in parallel, each under the read timeout; one that fails (unsupported here, a
 * timeout) is reported in `notSearched` and never hides what the others found.
 */
export async function findInBroker(brokerId: string, id: string): Promise<BrokerFind> {
  const config = findBrokerConfig(brokerId);
  const notSearched: BrokerFind['notSearched'] = [];
  const look = async <T>(what: string, run: () => Promise<T | null>): Promise<T | null> => {
    try {
      return await run();
    } catch (e) {
      const err = toConsoleError(e);
      notSearched.push({ what, code: err.code, message: err.message });
      return null;
    }
  };
  const [task, dead, result] = await Promise.all([
    look('waiting and running tasks', () => read(brokerId, 'task lookup', (a) => a.getTask(id), id)),
    look('dead letters', () => read(brokerId, 'dead-letter lookup', (a) => a.getDead(id), id)),
    look('results', () => read(brokerId, 'result lookup', (a) => a.getResult(id), id)),
  ]);
  const items: FoundItem[] = [];
  if (task) items.push({ kind: 'task', state: task.state, task: task.task, queue: task.queue, at: task.createdAt });
  if (dead) items.push({ kind: 'dead', state: 'dead', task: dead.task, queue: dead.queue, at: dead.diedAt });
  if (result) items.push({ kind: 'result', state: result.status, task: result.name, queue: null, at: result.dateDone });
  return { brokerId, name: config.name, items, notSearched };
}

/** Stuck work on one broker, each flag with its cause; what revoke can do follows the same
 *  capability and read-only decision as the actions. */
export async function diagnose(brokerId: string, overdue?: number): Promise<Diagnosis> {
  const overdueSeconds = overdue ?? getConfig().overdueSeconds ?? DEFAULT_OVERDUE_SECONDS;
  const config = findBrokerConfig(brokerId);
  return shared(brokerId, 'stuck-work diagnosis', overdueSeconds, async (a) => {
    if (!a.diagnose) {
      const why = "this system's adapter does not diagnose stuck work yet";
      return {
        brokerId,
        flags: [],
        unknown: STUCK_CHECKS.map((check) => ({ check, why })),
        notes: [],
        overdueSeconds,
        readAt: new Date().toISOString(),
      };
    }
    const revoke = config.readOnly ? { on: false, why: READ_ONLY_WHY } : (await a.capabilities()).revoke;
    return capFlags(await a.diagnose({ overdueSeconds, revoke }));
  });
}

/** The adapter's checks of what the console needs from its login (doctor); [] where it declares none. */
export const checkAccess = (brokerId: string) => read(brokerId, 'access check', async (a) => (a.checkAccess ? a.checkAccess() : []));
export const listWorkers = (brokerId: string) => shared(brokerId, 'workers', undefined, (a) => a.listWorkers());
export const listResults = (brokerId: string, q: ResultListQuery) =>
  shared(brokerId, 'results', q, async (a) => {
    await checkRange(a, q, 'resultRange');
    return a.listResults(q);
  });
export const taskNames = (brokerId: string) => shared(brokerId, 'task names', undefined, (a) => a.taskNames());
/** Task names seen, and each one's queues where the system shows them (the enqueue form's routing). */
export const taskSightings = (brokerId: string) => shared(brokerId, 'task names', 'sightings', (a) => sightingsOf(a));
