import 'server-only';
import { workerTally } from '@/lib/brokers/kit/overview';
import { ConsoleError } from '@/lib/brokers/errors';
import type { BrokerOverview } from '@/lib/brokers/schema';
import { potatoqFates } from '../fate';
import type { BrokerAdapter, StoreConfig } from '@/lib/brokers/types';
import { requireOn } from '@/lib/brokers/kit/capabilities';
import { cachedFor } from '@/lib/brokers/kit/connections';
import { guarded } from '@/lib/brokers/kit/guard';
import { parseOptions } from '@/lib/brokers/options';
import { ZPostgresOptions } from '../options';
import { mapPgError } from './errors';
import { normalizeUrl, pgNames } from './names';
import { overviewQueues, totalsOf, type QueueMemo } from './overview';
import { DEFAULT_COUNT_CAP, DEFAULT_COUNT_SCAN } from '../counts';
import { createPgDb } from './pool';
import { pgFamily } from './family';
import { probe } from './probe';
import { checkPgAccess } from './access';
import { loadEstimator } from './stats';
import { deadGroups, getDead, listDead } from './reads-dead';
import { deadHistogram } from './histogram';
import { listResults, listWorkers, taskNames, taskQueues, type Liveness } from './reads-misc';
import { listPeriodic } from './schedules';
import { getTask, listTasks, readResult } from './reads-tasks';
import { discardBatch, replayBatch, runBatches } from './writes';
import { enqueueMessage, purgeQueue, revokeBatch } from './writes-more';
import { findCall, importCall } from './writes-import';
import { peekWaiting, takeWaiting, tookWaiting } from './waiting';
import { callOfLetter } from '../calls';
import { previewPotatoqEnqueue } from '../enqueue-preview';
import { POTATOQ_TABLE_MODEL } from '../model';
import { diagnosePotatoq } from '../diagnose';
import { editedPayload, previewOf, resultOf } from '../edit-replay';
import { overdueFacts, runningFacts } from './reads-stuck';

/** How long a capabilities probe is trusted (privileges rarely change; a GRANT shows up soon). */
const PROBE_TTL_MS = 30_000;
const STATS_TTL_MS = 60_000;

/**
 * potatoq's PostgreSQL broker, read and written alongside its workers. Never runs DDL:
 * missing tables are NotMigrated ("run `potatoq migrate`"). Reads are single autocommit
 * statements on a read-only pool; each write is potatoq's own statements in one transaction,
 * with `pg_notify` on the queue's channel whenever work becomes ready.
 *
 * Options: `schema`, `table_prefix` (potatoq's transport options); `poolSize` (6 read
 * connections), `writePoolSize` (2), `statementTimeoutMs` (5000 for reads),
 * `writeStatementTimeoutMs` (30000), `lockTimeoutMs` (3000), `connectTimeoutMs` (5000),
 * `countCap` (1000: the overview counts each queue's ready rows exactly up to here), `countScan`
 * (50000: rows of each other state read to count them per queue), `searchWindow` (10000 newest rows for text search), `resultExpires`
 * (86400), `workerHeartbeatInterval` (5), `workerDeadAfter` (60).
 */
export function createPostgresAdapter(config: StoreConfig): BrokerAdapter {
  const o = parseOptions(ZPostgresOptions, config.options);
  const names = pgNames(o);
  const settings = {
    url: normalizeUrl(config.url),
    brokerId: config.id,
    readPoolSize: o.poolSize ?? 6,
    writePoolSize: o.writePoolSize ?? 2,
    statementTimeoutMs: o.statementTimeoutMs ?? 5000,
    writeStatementTimeoutMs: o.writeStatementTimeoutMs ?? 30_000,
    lockTimeoutMs: o.lockTimeoutMs ?? 3000,
    connectTimeoutMs: o.connectTimeoutMs ?? 5000,
  };
  const limits = { cap: o.countCap ?? DEFAULT_COUNT_CAP, scan: o.countScan ?? DEFAULT_COUNT_SCAN };
  // The queues the last overview listed: the next one counts them without waiting for the list.
  const queueMemo: QueueMemo = { queues: [] };
  const window = o.searchWindow ?? 10_000;
  const resultExpires = o.resultExpires ?? 86400;
  const live: Liveness = { staleAfter: 3 * (o.workerHeartbeatInterval ?? 5), deadAfter: o.workerDeadAfter ?? 60 };
  const db = createPgDb(settings, names);
  const { describe } = guarded((e) =>
    mapPgError(e, names, { statementMs: settings.writeStatementTimeoutMs, lockMs: settings.lockTimeoutMs }),
  );

  // Planner statistics change only on ANALYZE: one pg_stats read per minute is plenty.
  const stats = cachedFor(STATS_TTL_MS, () => db.read((sql) => loadEstimator(sql, names)).catch(() => null));
  const estimator = () => stats.get();

  // A failed probe (server down, not migrated) is retried on the next call.
  const probed = cachedFor(PROBE_TTL_MS, () => db.read((sql) => probe(sql, names, config.readOnly)));
  const capabilitiesProbe = () => probed.get();
  async function writable(action: 'replay' | 'discard' | 'revoke' | 'purge' | 'enqueue'): Promise<void> {
    const p = await capabilitiesProbe();
    requireOn(
      p.capabilities,
      action,
      (cap) => new ConsoleError('ReadOnly', `this PostgreSQL broker cannot ${action}: ${cap.why ?? 'read-only'}`),
    );
  }
  // After a ReadOnly error from the server (a REVOKE since the probe), probe again.
  const reprobeOn = <T>(p: Promise<T>): Promise<T> =>
    p.catch((e: unknown) => {
      if (e instanceof ConsoleError && e.code === 'ReadOnly') probed.forget();
      throw e;
    });

  /** A dead letter's payload; null when there is no such letter. */
  const letterText = async (id: string): Promise<string | null> =>
    (await db.read((sql) => sql<{ payload: string }>(`SELECT payload FROM ${names.dead} WHERE id = $1`, [id])))[0]?.payload ?? null;

  async function overview(): Promise<BrokerOverview> {
    const workersP = db.read((sql) => listWorkers(sql, names, live));
    const [p, workers, queues] = await Promise.all([
      capabilitiesProbe(),
      workersP,
      overviewQueues(db.read, names, limits, estimator, queueMemo, workersP),
    ]);
    const { totals, capped } = totalsOf(queues);
    return {
      id: config.id,
      name: config.name,
      kind: 'postgres',
      serverInfo: p.serverInfo,
      readOnly: p.readOnlyWhy !== null,
      capabilities: p.capabilities,
      queues,
      totals,
      ...(capped ? { totalsCapped: capped } : {}),
      workers: workerTally(workers),
      readAt: new Date().toISOString(),
    };
  }

  return {
    id: config.id,
    name: config.name,
    kind: 'postgres',
    model: POTATOQ_TABLE_MODEL,
    capabilities: async () => (await capabilitiesProbe()).capabilities,
    overview,
    checkAccess: () => db.read((sql) => checkPgAccess(sql, names)),
    listTasks: (q) => db.read((sql) => listTasks(sql, names, q, { searchWindow: window })),
    getTask: (id) => db.read((sql) => getTask(sql, names, id)),
    listSchedules: () => db.read((sql) => listPeriodic(sql, names)),
    listDead: (q) => db.read((sql) => listDead(sql, names, q, window)),
    deadGroups: (q) => db.read((sql) => deadGroups(sql, names, q, window)),
    getDead: (id) => db.read((sql) => getDead(sql, names, id)),
    family: (id, q) => db.read((sql) => pgFamily(sql, names, id, q.limit)),
    deadHistogram: (q) => db.read((sql) => deadHistogram(sql, names, q, window)),
    listWorkers: () => db.read((sql) => listWorkers(sql, names, live)),
    listResults: (q) => db.read((sql) => listResults(sql, names, q)),
    getResult: (id) => db.read((sql) => readResult(sql, names, id)),
    fate: (ids) =>
      potatoqFates(
        ids,
        {
          getTask: (id) => db.read((sql) => getTask(sql, names, id)),
          getDead: (id) => db.read((sql) => getDead(sql, names, id)),
          getResult: (id) => db.read((sql) => readResult(sql, names, id)),
        },
        POTATOQ_TABLE_MODEL.states,
        resultExpires,
      ),
    taskNames: () => db.read((sql) => taskNames(sql, names, window)),
    taskQueues: () => db.read((sql) => taskQueues(sql, names, window)),
    diagnose: async (q) => {
      const workersP = db.read((sql) => listWorkers(sql, names, live));
      const [workers, queues, running, overdue] = await Promise.all([
        workersP,
        overviewQueues(db.read, names, limits, estimator, queueMemo, workersP),
        db.read((sql) => runningFacts(sql, names)),
        db.read((sql) => overdueFacts(sql, names, q.overdueSeconds)),
      ]);
      return diagnosePotatoq({
        brokerId: config.id,
        queues,
        workers: { value: workers },
        running: { value: running },
        overdue: { value: overdue },
        overdueSeconds: q.overdueSeconds,
        deadAfter: live.deadAfter,
        revoke: q.revoke,
      });
    },

    replayDead: async (ids) => (
      await writable('replay'),
      reprobeOn(runBatches(db, 'replay', config.id, ids, replayBatch(names), describe, settings.writePoolSize))
    ),
    discardDead: async (ids) => (
      await writable('discard'),
      reprobeOn(runBatches(db, 'discard', config.id, ids, discardBatch(names), describe, settings.writePoolSize))
    ),
    removeMoved: async (ids) => (
      await writable('discard'),
      reprobeOn(runBatches(db, 'discard', config.id, ids, discardBatch(names, true), describe, settings.writePoolSize))
    ),
    revoke: async (ids) => (
      await writable('revoke'),
      reprobeOn(runBatches(db, 'revoke', config.id, ids, revokeBatch(names, resultExpires), describe, settings.writePoolSize))
    ),
    previewReplayEdited: async (id, edit) => previewOf(config.id, id, await letterText(id), edit),
    replayEdited: async (id, edit) => {
      await writable('replay');
      const p = previewOf(config.id, id, await letterText(id), edit);
      const batch = replayBatch(names, (payload) => editedPayload(payload, edit).after);
      return resultOf(p, await reprobeOn(runBatches(db, 'replay', config.id, [id], batch, describe, 1)));
    },
    purge: async (queue) => (
      await writable('purge'),
      { brokerId: config.id, queue, removed: await reprobeOn(purgeQueue(db, names, queue)) }
    ),
    enqueue: async (req) => (await writable('enqueue'), reprobeOn(enqueueMessage(db, names, config.id, req))),
    exportCall: (id) => db.read((sql) => getDead(sql, names, id)).then((d) => d && callOfLetter(d)),
    importCall: async (call) => (await writable('enqueue'), reprobeOn(importCall(db, names, call))),
    findCall: (id) => db.read((sql) => findCall(sql, names, id)),
    peekWaiting: (id) => db.read((sql) => peekWaiting(sql, names, id)),
    takeWaiting: async (id, claim) => (await writable('revoke'), reprobeOn(takeWaiting(db, names, id, claim, resultExpires))),
    tookWaiting: (id) => db.read((sql) => tookWaiting(sql, names, id)),
    previewEnqueue: async (req) => previewPotatoqEnqueue(config.id, req),
    close: () => db.close(),
  };
}
