import 'server-only';
import { resolveEnqueue, sightingsOf } from './enqueue-names';
import { ConsoleError, isConsoleError } from './errors';
import { getConfig } from '@/lib/config';
import { redactSecrets } from '@/lib/text/secrets';
import { brokerKindOf, findBrokerConfig, getAdapter, listBrokerConfigs } from './registry';
import { paramsKey } from './read-cache';
import { forgetReads, sharedReads } from './shared-reads';
import type {
  ActionResult,
  BrokerFind,
  BrokerModel,
  BrokerOverview,
  Capability,
  DeadDetail,
  DeadHistogram,
  DeadHistogramQuery,
  DeadFilter,
  DeadListQuery,
  EnqueueRequest,
  FoundItem,
  HealthEntry,
  ResultListQuery,
  TaskListRequest,
} from './schema';
import { DEFAULT_OVERDUE_SECONDS, STUCK_CHECKS, capFlags, defaultState, listingOf, withoutWrites, type Diagnosis } from './dto';
import type { BrokerAdapter, BrokerConfig, ReplayPace } from './types';
import type { BrokerEntry } from './naming';
import { brokerNames } from './systems';
import type { ReplayEditInput } from './schema-edit';
import { forgettingMoves, leftIds } from './move-journal-forget';
import { scheduleCaps } from './schedule-model';
import { checkRange } from './service-range';
import { SCHEDULE_CAPABILITIES, type ScheduleCapability } from './model';

const isScheduleCapability = (c: Capability): c is ScheduleCapability => (SCHEDULE_CAPABILITIES as readonly string[]).includes(c);
import type { FamilyQuery, TaskFamily } from './family/schema';

/** Why an action is off on a broker configured read-only. */
export const READ_ONLY_WHY = 'configured read-only';

/**
 * The only door from app/ into brokers. Adds timeouts, maps unknown errors to
 * BrokerUnavailable (without leaking URLs), and refuses actions the broker's capabilities or
 * read-only configuration do not allow. Authorisation happens before this, in lib/auth's gate.
 */

// Parsed and checked at boot (lib/config.ts): a bad value stops startup.
const readTimeoutMs = () => getConfig().timeouts.readMs;
const writeTimeoutMs = () => getConfig().timeouts.writeMs;

/** A PostgreSQL server error (pg's DatabaseError): a severity and a five-character SQLSTATE. */
function sqlState(e: unknown): string | null {
  if (!(e instanceof Error)) return null;
  const x = e as Error & { code?: unknown; severity?: unknown };
  return typeof x.severity === 'string' && typeof x.code === 'string' && /^[0-9A-Z]{5}$/.test(x.code) ? x.code : null;
}

export function toConsoleError(e: unknown): ConsoleError {
  if (isConsoleError(e)) return e;
  const state = sqlState(e);
  if (state) {
    // The server's text may quote the query or its values: it goes to the log, not to callers.
    console.error(JSON.stringify({ event: 'console.database-error', sqlstate: state, message: redactSecrets((e as Error).message) }));
    return new ConsoleError('BrokerUnavailable', `the database refused the request (SQLSTATE ${state}); the console's log has the details`);
  }
  const message = e instanceof Error ? e.message : String(e);
  // ConsoleError hides any credential a driver put into its text.
  return new ConsoleError('BrokerUnavailable', message || 'broker error');
}

export async function withTimeout<T>(what: string, ms: number, run: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ConsoleError('BrokerTimeout', `${what} took longer than ${ms / 1000}s`)), ms);
  });
  try {
    return await Promise.race([run(), timeout]);
  } catch (e) {
    throw toConsoleError(e);
  } finally {
    clearTimeout(timer);
  }
}

/** A NUL character anywhere in the input (ids, filters, search text, enqueue fields), looked
 *  for before any system sees it: PostgreSQL text cannot hold one, and no system's names do. */
export function hasNul(v: unknown, depth = 0): boolean {
  if (typeof v === 'string') return v.includes('\u0000');
  if (depth > 8 || v === null || typeof v !== 'object') return false;
  return (Array.isArray(v) ? v : Object.values(v)).some((x) => hasNul(x, depth + 1));
}

const NUL = () => new ConsoleError('InvalidInput', 'input contains a NUL character');

function read<T>(brokerId: string, what: string, fn: (a: BrokerAdapter) => Promise<T>, input?: unknown): Promise<T> {
  if (hasNul(input)) return Promise.reject(NUL());
  return withTimeout(what, readTimeoutMs(), async () => fn(getAdapter(brokerId)));
}

/** A read that identical requests share while it is fresh (lib/brokers/read-cache.ts: in
 *  flight, then for the configured few seconds). `params` is everything the read depends on
 *  besides the broker; the answer is broker data, and what a caller may see of it is decided
 *  above (lib/auth). */
function shared<T>(brokerId: string, what: string, params: unknown, fn: (a: BrokerAdapter) => Promise<T>): Promise<T> {
  if (hasNul(params)) return Promise.reject(NUL());
  return sharedReads().read(brokerId, `${what}\u0000${paramsKey(params)}`, () =>
    withTimeout(what, readTimeoutMs(), async () => fn(getAdapter(brokerId))),
  );
}

/** Refuses an action the configuration or the broker does not allow. */
export async function requireCapability(brokerId: string, capability: Capability): Promise<BrokerAdapter> {
  const config = findBrokerConfig(brokerId);
  if (config.readOnly) throw new ConsoleError('ReadOnly', `broker "${brokerId}" is configured read-only`);
  const adapter = getAdapter(brokerId);
  const caps = await withTimeout('capability probe', readTimeoutMs(), () => adapter.capabilities());
  // A schedule capability the adapter does not answer is its model's (lib/brokers/schedule-model.ts).
  const cap = caps[capability] ?? (isScheduleCapability(capability) ? scheduleCaps(adapter.model)[capability] : undefined) ?? { on: false };
  if (!cap.on) throw new ConsoleError('Unsupported', cap.why ?? `${capability} is not available on this broker`);
  return adapter;
}

function write<T>(
  brokerId: string,
  capability: Capability,
  what: string,
  fn: (a: BrokerAdapter) => Promise<T>,
  input?: unknown,
): Promise<T> {
  if (hasNul(input)) return Promise.reject(NUL());
  // What was read of the broker before the write (or during it) is not shared after it.
  return withTimeout(what, writeTimeoutMs(), async () => fn(await requireCapability(brokerId, capability))).finally(() =>
    forgetReads(brokerId),
  );
}

export function brokerList(): BrokerEntry[] {
  return listBrokerConfigs().map(brokerEntry);
}

/** The console's own environment ("production"; each broker's may differ), null when unnamed. */
export const consoleEnvironment = (): string | null => getConfig().environment;

/** A configured broker's id, name, system and store, from its configuration alone. */
function brokerEntry(b: BrokerConfig): BrokerEntry {
  return {
    id: b.id,
    name: b.name,
    kind: brokerKindOf(b),
    system: b.kind,
    ...brokerNames(b),
    ...(b.environment ? { environment: b.environment } : {}),
  };
}

/** The adapter's declared model (states, what each action does); null while it cannot be created. */
export function brokerModel(brokerId: string): BrokerModel | null {
  try {
    return getAdapter(brokerId).model;
  } catch {
    return null;
  }
}

export async function overview(brokerId: string): Promise<BrokerOverview> {
  const config = findBrokerConfig(brokerId);
  // All of it shared: what follows the adapter's answer depends on the broker's configuration
  // and adapter only, so every caller gets the same object (and the fast reads its JSON once).
  return shared(brokerId, 'overview', undefined, async (a) => {
    const started = performance.now();
    const o = await a.overview();
    // Schedules are declared by the model; the adapter's own answer (a read-only token) wins.
    const raw = { ...o, capabilities: { ...scheduleCaps(a.model), ...o.capabilities }, model: a.model };
    // How long the broker took to answer: the overview ranks slow brokers before healthy ones.
    raw.readMs = Math.round(performance.now() - started);
    // Workers the adapter declares it cannot see are unknown, never "0 alive" (a false page).
    const known = raw.capabilities.workers.on ? raw : { ...raw, workers: null };
    // An adapter that reads no family cannot have one, whatever its defaults say.
    const hasFamily = a.family !== undefined || !known.capabilities.family.on;
    const withFamily = hasFamily ? known : { ...known, capabilities: { ...known.capabilities, family: { on: false, why: NO_FAMILY_WHY } } };
    // Likewise an adapter that tells no replayed task's fate (lib/brokers/service-fate.ts).
    const hasFate = a.fate !== undefined || !withFamily.capabilities.fate.on;
    const result = hasFate
      ? withFamily
      : { ...withFamily, capabilities: { ...withFamily.capabilities, fate: { on: false, why: NO_FATE_WHY } } };
    if (!config.readOnly) return result;
    // Configuration can only take capabilities away.
    return { ...result, readOnly: true, capabilities: withoutWrites(result.capabilities, READ_ONLY_WHY, 'ReadOnly') };
  });
}

export type OverviewOutcome =
  { ok: true; overview: BrokerOverview } | ({ ok: false; error: { code: string; message: string } } & BrokerEntry);

/** One broker's overview as an outcome: a failure (its own timeout included) becomes an error
 *  entry, never a thrown error, so each overview card settles on its own. */
export async function overviewOutcome(brokerId: string): Promise<OverviewOutcome> {
  try {
    return { ok: true, overview: await overview(brokerId) };
  } catch (e) {
    const b = findBrokerConfig(brokerId);
    const err = toConsoleError(e);
    return { ok: false, ...brokerEntry(b), error: { code: err.code, message: err.message } };
  }
}

/** Every broker's overview; one failing broker becomes an error entry, never a thrown error. */
export async function overviewAll(): Promise<OverviewOutcome[]> {
  return Promise.all(listBrokerConfigs().map((b) => overviewOutcome(b.id)));
}

export async function health(): Promise<HealthEntry[]> {
  const all = await overviewAll();
  return all.map((o) =>
    o.ok
      ? { id: o.overview.id, name: o.overview.name, kind: o.overview.kind, ok: true, error: null }
      : { id: o.id, name: o.name, kind: o.kind as HealthEntry['kind'], ok: false, error: o.error },
  );
}

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
export const deadGroups = (brokerId: string, q: { queue?: string }) => shared(brokerId, 'dead-letter groups', q, (a) => a.deadGroups(q));
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
/** Why following replayed tasks is off where an adapter tells no fate (on by default). */
export const NO_FATE_WHY = "this system's adapter does not say how to find what became of a replayed task";

/** Why the family is off where an adapter does not read one (its capability is on by default). */
export const NO_FAMILY_WHY = "this system's adapter does not read task families";

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

/** Workflow `id` deleted with its subtree where the adapter declares it; the `discard`
 *  capability (and read-only) decides as for every delete. */
export const deleteFamily = (brokerId: string, id: string): Promise<ActionResult> =>
  write(
    brokerId,
    'discard',
    'workflow delete',
    (a) => {
      if (!a.deleteFamily || !a.model.actions.deleteFamily)
        throw new ConsoleError('Unsupported', "this system's adapter does not delete a workflow with its subtree");
      return a.deleteFamily(id);
    },
    id,
  );

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

// Replays and discards forget the move journal's rows of the letters that left (./move-journal-forget.ts).
export const replayDead = (brokerId: string, ids: string[]): Promise<ActionResult> =>
  forgettingMoves(brokerId, () => write(brokerId, 'replay', 'replay', (a) => a.replayDead(ids), ids), leftIds);
/** A replay of many ids in one pass where the adapter has one (`replayDeadPaced`), else one
 *  `replayDead`. No overall timeout: it runs as long as the letters take, steered by `pace`. */
export async function replayDeadPaced(brokerId: string, ids: string[], pace: ReplayPace): Promise<ActionResult> {
  if (hasNul(ids)) throw NUL();
  const a = await requireCapability(brokerId, 'replay');
  const run = () => (a.replayDeadPaced ? a.replayDeadPaced(ids, pace) : a.replayDead(ids));
  return forgettingMoves(brokerId, () => run().finally(() => forgetReads(brokerId)), leftIds);
}
/** Whether the broker's adapter replays a whole snapshot in one pass (`replayDeadPaced`). */
export const pacesReplay = (brokerId: string): boolean => typeof getAdapter(brokerId).replayDeadPaced === 'function';
/** The message a replay with edits would write (a read: nothing is written). */
export const previewReplayEdited = (brokerId: string, id: string, edit: ReplayEditInput) =>
  read(
    brokerId,
    'edit preview',
    (a) => {
      if (!a.previewReplayEdited || !a.model.actions.replayEdited)
        throw new ConsoleError('Unsupported', 'this broker cannot replay a dead letter with edits');
      return a.previewReplayEdited(id, edit);
    },
    { id, edit },
  );
/** Replays one dead letter with edited arguments, kwargs, queue or priority. */
export const replayEdited = (brokerId: string, id: string, edit: ReplayEditInput) =>
  forgettingMoves(
    brokerId,
    () =>
      write(
        brokerId,
        'replay',
        'replay with edits',
        (a) => {
          if (!a.replayEdited || !a.model.actions.replayEdited)
            throw new ConsoleError('Unsupported', 'this broker cannot replay a dead letter with edits');
          return a.replayEdited(id, edit);
        },
        { id, edit },
      ),
    (r) => (r.outcome.outcome === 'ok' ? [id] : []),
  );
export const discardDead = (brokerId: string, ids: string[]): Promise<ActionResult> =>
  forgettingMoves(brokerId, () => write(brokerId, 'discard', 'discard', (a) => a.discardDead(ids), ids), leftIds);
export const revoke = (brokerId: string, ids: string[]): Promise<ActionResult> =>
  write(brokerId, 'revoke', 'revoke', (a) => a.revoke(ids), ids);
/** Rebuilds dead letters of another system as this broker's tasks and replays them: the
 *  adapter's `convert`, declared by `model.actions.convert` (what such a letter is, what it does). */
export const convert = (brokerId: string, ids: string[]): Promise<ActionResult> =>
  write(
    brokerId,
    'replay',
    'convert',
    async (a) => {
      if (!a.convert || !a.model.actions.convert)
        throw new ConsoleError('Unsupported', 'this broker cannot convert letters of another system');
      return a.convert(ids);
    },
    ids,
  );
/** Holds a queue's work back from its workers, or lets it go (the adapter's `setQueuePaused`). */
export const setQueuePaused = (brokerId: string, queue: string, paused: boolean) =>
  write(
    brokerId,
    'pause',
    paused ? 'pause' : 'resume',
    async (a) => {
      if (!a.setQueuePaused) throw new ConsoleError('Unsupported', 'this broker cannot pause a queue');
      return a.setQueuePaused(queue, paused);
    },
    queue,
  );
export const purge = (brokerId: string, queue: string) => write(brokerId, 'purge', 'purge', (a) => a.purge(queue), queue);
/** One task enqueued: without a queue, where the task was seen; a misspelt task or queue name
 *  refused unless `allowUnknown` (lib/brokers/enqueue-names.ts). */
export const enqueue = (brokerId: string, req: EnqueueRequest) =>
  write(brokerId, 'enqueue', 'enqueue', async (a) => a.enqueue(await resolveEnqueue(a, req, true)), req);
/** The message an enqueue would write, built by the broker's adapter and written nowhere: a
 *  read, so it needs no write capability (the form shows it while the operator types). Names
 *  are not refused here: the form warns about them itself. */
export const previewEnqueue = (brokerId: string, req: EnqueueRequest) =>
  read(brokerId, 'enqueue preview', async (a) => a.previewEnqueue(await resolveEnqueue(a, req, false)), req);

/**
 * Each configured broker's first check, run once at server boot without holding it up: a
 * broker its adapter refuses (`Unsupported`: a Redis Cluster node, a Redis older than 6.2, a
 * system not supported yet) or cannot reach yet is reported with its id and reason. The pages
 * still show every other broker; the refused one shows the same reason on its card.
 */
export interface BootRefusal {
  id: string;
  code: string;
  message: string;
}
export async function bootCheck(): Promise<BootRefusal[]> {
  const out = await Promise.all(
    listBrokerConfigs().map(async (b): Promise<BootRefusal | null> => {
      try {
        await read(b.id, 'boot check', (a) => a.capabilities());
        return null;
      } catch (e) {
        const err = toConsoleError(e);
        return { id: b.id, code: err.code, message: err.message };
      }
    }),
  );
  return out.filter((x): x is BootRefusal => x !== null);
}
