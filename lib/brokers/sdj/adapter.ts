import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import { parseOptions } from '@/lib/brokers/options';
import {
  noWorkflows,
  withoutWrites,
  type ActionOutcome,
  type ActionResult,
  type BrokerOverview,
  type Capabilities,
  type QueueStats,
} from '@/lib/brokers/schema';
import type { AdapterContext } from '@/lib/brokers/adapter-context';
import type { BrokerAdapter, StoreConfig } from '@/lib/brokers/types';
import { capabilitiesOf } from '@/lib/brokers/kit/capabilities';
import { openOnce } from '@/lib/brokers/kit/connections';
import { totalsOver } from '@/lib/brokers/kit/overview';
import { actionResult, outcomesInOrder } from '@/lib/brokers/kit/results';
import { SDJ_MODEL, SDJ_STATES } from './broker-model';
import { cancelJobs } from './cancel';
import { UUID } from './db';
import { deadGroups, deadHistogram } from './dead';
import { deleteJobs } from './delete';
import { sdjFamily } from './family';
import { previewReplayEditedSdj, replayEditedSdj } from './edit-replay';
import { enqueueSdj, previewEnqueueSdj } from './enqueue-contract';
import { diagnoseSdj } from './diagnose';
import { VERIFIED_LIBRARY, type SdjSchema } from './ledger';
import type { SdjOutcome } from './model';
import { ZSdjBrokerOptions } from './options';
import { readOverview, type SdjQueueRow } from './overview';
import { purgeJobs } from './purge';
import { pauseQueue, resumeQueue } from './queue-pause';
import { sdjFates } from './fate';
import { deadIds, getDead, getResult, getTask, listDead, listResults, listTasks, taskNames, taskQueues } from './reads';
import { requeueJobs } from './requeue';
import { getSdjSchedule, listSdjSchedules } from './schedules';
import { STALE_LOCK_MINUTES } from './stuck';
import { openSdjStore, type SdjStore } from './store';
import { parseSdjUrl } from './url';
import { listWorkers } from './workers';
import { checkSdjAccess } from './access';

const WORKERS_WHY = 'Simple Durable Jobs keeps no worker registry: the Workers page derives workers from the lock holders of running jobs';

/**
 * Simple Durable Jobs (v4.5.1) in the application's PostgreSQL or MySQL database, through the
 * store layer (store.ts: the connection and the ledger gate; every write re-implements the
 * library's own operation with row locks). Writes are on only where the migration ledger shows
 * the schema the console was verified against; elsewhere they are off with both versions named.
 * The connection opens on first use, so a broker that is down never stops the console's boot.
 */
export function createSdjAdapter(config: StoreConfig, _ctx: AdapterContext): BrokerAdapter {
  const o = parseOptions(ZSdjBrokerOptions, config.options);
  const target = parseSdjUrl(config.url);
  const staleMinutes = o.staleLockMinutes ?? STALE_LOCK_MINUTES;
  const opened = openOnce(
    () => openSdjStore(config.url, { schema: o.schema, lockWaitMs: o.lockWaitMs }),
    (s) => s.close(),
  );
  const store = () => opened.get();
  const db = async () => (await store()).db;

  const capabilities = async (): Promise<Capabilities> => capsOf(await (await store()).schema());

  async function overview(): Promise<BrokerOverview> {
    const s = await store();
    const [schema, ov] = [await s.schema(), await readOverview(s.db, { timeoutMs: o.countTimeoutMs })];
    const caps = capsOf(schema);
    const queues = ov.queues.map(statsOf);
    const unknown = ov.countsUnknown;
    return {
      id: config.id,
      name: config.name,
      kind: target.dialect,
      serverInfo: `Simple Durable Jobs schema version ${schema.version ?? 'none'} (${schema.verified ? `verified: ${VERIFIED_LIBRARY}` : 'not verified'})`,
      readOnly: !schema.verified,
      capabilities: caps,
      queues,
      totals: totalsOver(queues, SDJ_STATES),
      workers: null,
      unknownWhy: {
        workers: WORKERS_WHY,
        ...(unknown ? Object.fromEntries([...SDJ_STATES, 'dead', 'oldest'].map((k) => [k, unknown])) : {}),
      },
      ...warningsOf(ov.queues, schema.reason),
      readAt: new Date().toISOString(),
    };
  }

  /** Outcomes of the store's writes as the contract's result; an id that is no UUID is no job here. */
  async function act(
    action: ActionResult['action'],
    ids: string[],
    write: (s: SdjStore, ids: string[]) => Promise<SdjOutcome[]>,
    already?: (o: SdjOutcome) => ActionOutcome,
  ): Promise<ActionResult> {
    const valid = ids.filter((id) => UUID.test(id));
    const done = valid.length ? await write(await store(), valid) : [];
    const reported = done.map((x) => (x.outcome === 'already' && already ? { ...already(x), id: x.id } : x));
    const outcomes = outcomesInOrder(ids, reported, NO_JOB, (id) => id.toLowerCase());
    return actionResult(action, config.id, ids, outcomes);
  }

  return {
    id: config.id,
    name: config.name,
    kind: target.dialect,
    model: SDJ_MODEL,
    capabilities,
    overview,
    checkAccess: async () => checkSdjAccess(await db()),
    listTasks: async (q) => listTasks(await db(), q),
    getTask: async (id) => getTask(await db(), id),
    listDead: async (q) => listDead(await db(), q),
    getDead: async (id) => getDead(await db(), id),
    family: async (id, q) => sdjFamily(await db(), id, q.limit),
    deadIds: async (q, cap) => deadIds(await db(), q, cap),
    deadGroups: async (q) => deadGroups(await db(), q),
    deadHistogram: async (q) => deadHistogram(await db(), q),
    listWorkers: async () => listWorkers(await db(), staleMinutes),
    listResults: async (q) => listResults(await db(), q),
    getResult: async (id) => getResult(await db(), id),
    fate: async (ids) => sdjFates(ids, await db(), SDJ_MODEL.states),
    taskNames: async () => taskNames(await db()),
    taskQueues: async () => taskQueues(await db()),
    // Reads: on whatever the ledger says, like every other read (ledger.ts).
    listSchedules: async () => listSdjSchedules(await db()),
    getSchedule: async (id) => getSdjSchedule(await db(), id),
    // The letter is no longer dead (another console replayed it): gone, as the contract has it.
    replayDead: (ids) =>
      act('replay', ids, requeueJobs, (x) => ({ id: x.id, outcome: 'missing', message: `not a dead letter any more: ${x.message}` })),
    discardDead: (ids) => act('discard', ids, (s, v) => deleteJobs(s, v, { deadOnly: true })),
    deleteFamily: (id) => act('discard', [id], (s, v) => deleteJobs(s, v, { subtree: true })),
    revoke: (ids) => act('revoke', ids, cancelJobs),
    async purge(queue) {
      const s = await store();
      let removed = 0;
      for (const status of ['pending', 'paused']) removed += (await purgeJobs(s, { queue, status })).deleted;
      return { brokerId: config.id, queue, removed };
    },
    enqueue: async (req) => enqueueSdj(await store(), config.id, req),
    previewEnqueue: async (req) => previewEnqueueSdj(await store(), config.id, req),
    previewReplayEdited: async (id, edit) => previewReplayEditedSdj(await store(), config.id, id, edit),
    replayEdited: async (id, edit) => replayEditedSdj(await store(), config.id, id, edit),
    diagnose: async (q) => {
      const s = await store();
      return diagnoseSdj(s.db, config.id, (await readOverview(s.db, { timeoutMs: o.countTimeoutMs })).queues, q, staleMinutes);
    },
    async setQueuePaused(queue, paused) {
      const s = await store();
      const r = paused ? await pauseQueue(s, queue) : await resumeQueue(s, queue);
      if (r.outcome !== 'ok' && r.outcome !== 'already') throw new ConsoleError('Conflict', r.message);
      return { brokerId: config.id, queue, paused, pending: null, running: null };
    },
    close: () => opened.close(),
  };
}

/** Why Simple Durable Jobs has no Workflows view (its fan-out tree is shown per job). */
const SDJ_NO_WORKFLOWS =
  'Simple Durable Jobs keeps no workflow DAG with step states: its fan-out parents and children are linked job by job (shown on each job page)';

const NO_JOB = (id: string): ActionOutcome => ({
  id,
  outcome: 'missing',
  message: 'no job with this id (Simple Durable Jobs ids are UUIDs)',
});

/** Everything on; every write off, with why, on an unverified schema. */
function capsOf(schema: SdjSchema): Capabilities {
  const caps = capabilitiesOf(SDJ_MODEL.states, noWorkflows(SDJ_NO_WORKFLOWS));
  return schema.verified ? caps : withoutWrites(caps, schema.reason ?? 'the schema is not the verified one');
}

function statsOf(r: SdjQueueRow): QueueStats {
  return {
    name: r.queue,
    counts: Object.fromEntries(SDJ_STATES.map((k) => [k, r.counts ? r.counts[k] : null])),
    dead: r.dead,
    oldestWaitingAt: r.oldestPendingAt,
    tasks: null,
    paused: r.paused,
  };
}

/** What the card says besides the counts: an unverified schema, rows the states do not show. */
function warningsOf(rows: SdjQueueRow[], schemaWhy: string | null): { warnings?: string[] } {
  const out: string[] = schemaWhy ? [`Writes are off: ${schemaWhy}.`] : [];
  for (const r of rows) {
    const unmarked = r.counts && r.dead !== null ? r.counts.failed - r.dead : 0;
    if (unmarked > 0)
      out.push(`Queue ${r.queue}: ${unmarked} failed job(s) carry no dead_lettered_at, so no tab lists them (the results page does).`);
    for (const [status, n] of Object.entries(r.other))
      out.push(
        `Queue ${r.queue}: ${n} job(s) in status "${status.slice(0, 40)}", which Simple Durable Jobs v4.5.1 never writes; no tab lists them.`,
      );
  }
  return out.length ? { warnings: out } : {};
}
