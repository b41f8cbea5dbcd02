import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import { parseOptions } from '@/lib/brokers/options';
import {
  allCapabilities,
  withoutWrites,
  type ActionOutcome,
  type ActionResult,
  type BrokerOverview,
  type Capabilities,
  type Counted,
  type QueueStats,
} from '@/lib/brokers/schema';
import type { AdapterContext } from '@/lib/brokers/adapter-context';
import type { BrokerAdapter, StoreConfig } from '@/lib/brokers/types';
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
import { deadIds, getDead, getResult, getTask, listDead, listResults, listTasks, taskNames, taskQueues } from './reads';
import { requeueJobs } from './requeue';
import { STALE_LOCK_MINUTES } from './stuck';
import { openSdjStore, type SdjStore } from './store';
import { parseSdjUrl } from './url';
import { listWorkers } from './workers';

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
  let opened: Promise<SdjStore> | null = null;
  const store = (): Promise<SdjStore> => {
    if (!opened) {
      opened = openSdjStore(config.url, { schema: o.schema, lockWaitMs: o.lockWaitMs });
      opened.catch(() => (opened = null));
    }
    return opened;
  };
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
      totals: totalsOf(queues),
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
    const byId = new Map(done.map((x) => [x.id, x]));
    const outcomes = ids.map((id): ActionOutcome => {
      const x = byId.get(id.toLowerCase());
      if (!x) return { id, outcome: 'missing', message: 'no job with this id (Simple Durable Jobs ids are UUIDs)' };
      const out = { ...x, id };
      return x.outcome === 'already' && already ? { ...already(x), id } : out;
    });
    return {
      action,
      brokerId: config.id,
      requested: ids.length,
      succeeded: outcomes.filter((x) => x.outcome === 'ok'),
      failed: outcomes.filter((x) => x.outcome !== 'ok'),
    };
  }

  return {
    id: config.id,
    name: config.name,
    kind: target.dialect,
    model: SDJ_MODEL,
    capabilities,
    overview,
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
    taskNames: async () => taskNames(await db()),
    taskQueues: async () => taskQueues(await db()),
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
    async close() {
      const s = opened;
      opened = null;
      if (s) await (await s.catch(() => null))?.close();
    },
  };
}

/** Everything on; every write off, with why, on an unverified schema. */
function capsOf(schema: SdjSchema): Capabilities {
  const caps: Capabilities = allCapabilities(SDJ_MODEL.states);
  return schema.verified ? caps : withoutWrites(caps, schema.reason ?? 'the schema is not the verified one');
}

function statsOf(r: SdjQueueRow): QueueStats {
  return {
    name: r.queue,
    counts: Object.fromEntries(SDJ_STATES.map((k) => [k, r.counts ? r.counts[k] : null])),
    dead: r.dead,
    oldestReadyAt: r.oldestPendingAt,
    tasks: null,
    paused: r.paused,
  };
}

function totalsOf(queues: QueueStats[]): Counted {
  const sum = (get: (q: QueueStats) => number | null | undefined): number | null =>
    queues.reduce<number | null>((acc, q) => {
      const v = get(q);
      return acc === null || v === null || v === undefined ? null : acc + v;
    }, 0);
  return { counts: Object.fromEntries(SDJ_STATES.map((k) => [k, sum((q) => q.counts[k])])), dead: sum((q) => q.dead) };
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
