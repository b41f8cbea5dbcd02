import 'server-only';
import { workerTally } from '@/lib/brokers/kit/overview';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { ConsoleError } from '@/lib/brokers/errors';
import { noWorkflows, withoutWrites, type Capabilities, type EnqueueRequest } from '@/lib/brokers/schema';
import { capabilitiesOf } from '@/lib/brokers/kit/capabilities';
import { openOnce } from '@/lib/brokers/kit/connections';
import { guarded } from '@/lib/brokers/kit/guard';
import { potatoqFates } from '../fate';
import type { BrokerAdapter, StoreConfig } from '@/lib/brokers/types';
import { DEFAULT_BUSY_TIMEOUT_MS, mapSqliteError, openConnections, type Connections } from './connection';
import { deadGroups, getDead, listDead } from './reads-dead';
import { deadHistogram } from './histogram';
import type { Liveness } from '../heartbeats';
import { parseOptions } from '@/lib/brokers/options';
import { ZSqliteOptions } from '../options';
import { listResults, listWorkers, taskNames, taskQueues } from './reads-misc';
import { listPeriodic } from './schedules';
import { overviewQueues } from './reads-overview';
import { DEFAULT_COUNT_CAP, DEFAULT_COUNT_SCAN, totalsOf } from '../counts';
import { getTask, listTasks, readResult } from './reads-tasks';
import { pathFromUrl } from './url';
import { enqueueMessage } from './writes-enqueue';
import { findCall, importCall } from './writes-import';
import { callOfLetter } from '../calls';
import { previewPotatoqEnqueue } from '../enqueue-preview';
import { revokeStep } from './writes-revoke';
import { discardStep, replayStep, runPerId } from './writes';
import { peekWaiting, takeWaiting, tookWaiting } from './waiting';
import { POTATOQ_NO_PAUSE, POTATOQ_NO_RESULT_RANGE, POTATOQ_NO_WORKFLOWS, POTATOQ_TABLE_MODEL } from '../model';
import { diagnosePotatoq } from '../diagnose';
import { editedPayload, previewOf, resultOf } from '../edit-replay';
import { overdueFacts, runningFacts } from './reads-stuck';
import { sqliteFamily } from './family';

/** A dead letter's payload as text; null when there is no such letter. */
function letterText(db: Database.Database, id: string): string | null {
  const raw = db.prepare('SELECT payload FROM potatoq_dead WHERE id = ?').pluck().get(id) as string | Buffer | undefined;
  if (raw === undefined) return null;
  return typeof raw === 'string' ? raw : raw.toString('utf8');
}

/**
 * potatoq's SQLite broker file, read and written alongside its workers. Connections open
 * lazily (a missing file or missing tables is reported per call, and a later call retries),
 * the console never creates the database or its tables, and every write is potatoq's own
 * statement inside `BEGIN IMMEDIATE`.
 *
 * Options (from the broker's configuration): `busyTimeoutMs` (5000), `resultExpires` (86400,
 * potatoq's `result_expires`), `workerHeartbeatInterval` (5), `workerDeadAfter` (60),
 * `countCap` (1000: the overview counts each queue's ready rows exactly up to here), `countScan`
 * (50000: rows of each other state read to count them per queue), `searchWindow`
 * (10000 newest rows for text search, error groups and task names).
 *
 * Every read walks one of potatoq's indexes and stops early (sqlite-plans.int.test.ts checks the
 * plans); where potatoq has no index (claimed_at, the dead letters' queue) the work is bounded
 * by the running rows or the dead-letter table (potatoq's dead_letter_max).
 */
export function createSqliteAdapter(config: StoreConfig): BrokerAdapter {
  const o = parseOptions(ZSqliteOptions, config.options);
  const busyTimeoutMs = o.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  const resultExpires = o.resultExpires ?? 86400;
  const limits = { cap: o.countCap ?? DEFAULT_COUNT_CAP, scan: o.countScan ?? DEFAULT_COUNT_SCAN };
  const window = o.searchWindow ?? 10_000;
  const live: Liveness = { staleAfter: 3 * (o.workerHeartbeatInterval ?? 5), deadAfter: o.workerDeadAfter ?? 60 };
  let file: string | null = null;
  const base = () => (file ? path.basename(file) : 'database');
  const conns = openOnce(
    () => openConnections((file ??= pathFromUrl(config.url)), { readOnly: config.readOnly, busyTimeoutMs }),
    (c: Connections) => {
      c.read.close();
      c.write?.close();
    },
  );
  const open = () => conns.get();
  const sys = guarded((e) => mapSqliteError(e, base(), busyTimeoutMs), {
    // A deleted/replaced file or dropped tables: reopen (and re-check) on the next call.
    failed: (m) => {
      if (m instanceof ConsoleError && ['BrokerUnavailable', 'NotMigrated'].includes(m.code)) void conns.close().catch(() => undefined);
    },
  });
  const read = <T>(fn: (db: Database.Database) => T) => sys.read(() => fn(open().read));
  const { act, describe } = sys;
  function writer(): Database.Database {
    const c = open();
    if (!c.write) throw new ConsoleError('ReadOnly', `this SQLite broker is read-only: ${c.readOnlyWhy ?? 'no write access'}`);
    return c.write;
  }

  function capabilities(): Capabilities {
    const c = open();
    const caps = capabilitiesOf(
      POTATOQ_TABLE_MODEL.states,
      { pause: POTATOQ_NO_PAUSE, resultRange: POTATOQ_NO_RESULT_RANGE },
      noWorkflows(POTATOQ_NO_WORKFLOWS),
    );
    return c.write ? caps : withoutWrites(caps, c.readOnlyWhy ?? 'read-only');
  }

  return {
    id: config.id,
    name: config.name,
    kind: 'sqlite',
    model: POTATOQ_TABLE_MODEL,
    capabilities: () => sys.read(capabilities),
    overview: () =>
      read((db) => {
        const workers = listWorkers(db, live);
        const queues = overviewQueues(db, workers, limits);
        const { totals, capped } = totalsOf(queues);
        const version = db.prepare('SELECT sqlite_version()').pluck().get() as string;
        const journal = String(db.pragma('journal_mode', { simple: true }));
        return {
          id: config.id,
          name: config.name,
          kind: 'sqlite' as const,
          serverInfo: `SQLite ${version} (journal ${journal})`,
          readOnly: !open().write,
          capabilities: capabilities(),
          queues,
          totals,
          ...(capped ? { totalsCapped: capped } : {}),
          workers: workerTally(workers),
          readAt: new Date().toISOString(),
        };
      }),
    listTasks: (q) => read((db) => listTasks(db, q, window)),
    getTask: (id) => read((db) => getTask(db, id)),
    listDead: (q) => read((db) => listDead(db, q, window)),
    deadGroups: (q) => read((db) => deadGroups(db, q, window)),
    getDead: (id) => read((db) => getDead(db, id)),
    family: async (id, q) => sqliteFamily(await read((db) => db), id, q.limit),
    deadHistogram: (q) => read((db) => deadHistogram(db, q)),
    listWorkers: () => read((db) => listWorkers(db, live)),
    listSchedules: () => read((db) => listPeriodic(db)),
    listResults: (q) => read((db) => listResults(db, q)),
    getResult: (id) => read((db) => readResult(db, id)),
    fate: (ids) =>
      potatoqFates(
        ids,
        {
          getTask: (id) => read((db) => getTask(db, id)),
          getDead: (id) => read((db) => getDead(db, id)),
          getResult: (id) => read((db) => readResult(db, id)),
        },
        POTATOQ_TABLE_MODEL.states,
        resultExpires,
      ),
    taskNames: () => read((db) => taskNames(db, window)),
    taskQueues: () => read((db) => taskQueues(db, window)),
    diagnose: (q) =>
      read((db) => {
        const workers = listWorkers(db, live);
        return diagnosePotatoq({
          brokerId: config.id,
          queues: overviewQueues(db, workers, limits),
          workers: { value: workers },
          running: { value: runningFacts(db) },
          overdue: { value: overdueFacts(db, q.overdueSeconds) },
          overdueSeconds: q.overdueSeconds,
          deadAfter: live.deadAfter,
          revoke: q.revoke,
        });
      }),

    replayDead: (ids) =>
      act(() => {
        const db = writer();
        return runPerId(db, 'replay', config.id, ids, replayStep(db), describe);
      }),
    exportCall: (id) => read((db) => getDead(db, id)).then((d) => d && callOfLetter(d)),
    importCall: (call) => act(() => importCall(writer(), call)),
    findCall: (id) => read((db) => findCall(db, id)),
    peekWaiting: (id) => read((db) => peekWaiting(db, id)),
    takeWaiting: (id, claim) => act(() => takeWaiting(writer(), id, claim, resultExpires)),
    tookWaiting: (id) => read((db) => tookWaiting(db, id)),
    discardDead: (ids) =>
      act(() => {
        const db = writer();
        return runPerId(db, 'discard', config.id, ids, discardStep(db), describe);
      }),
    removeMoved: (ids) =>
      act(() => {
        const db = writer();
        return runPerId(db, 'discard', config.id, ids, discardStep(db, true), describe);
      }),
    revoke: (ids) =>
      act(() => {
        const db = writer();
        return runPerId(db, 'revoke', config.id, ids, revokeStep(db, resultExpires), describe);
      }),
    previewReplayEdited: (id, edit) => read((db) => previewOf(config.id, id, letterText(db, id), edit)),
    replayEdited: (id, edit) =>
      act(() => {
        const db = writer();
        const p = previewOf(config.id, id, letterText(db, id), edit);
        return resultOf(
          p,
          runPerId(
            db,
            'replay',
            config.id,
            [id],
            replayStep(db, (raw) => editedPayload(raw, edit).after),
            describe,
          ),
        );
      }),
    purge: (queue) =>
      act(() => {
        const db = writer();
        const removed = db
          .transaction(() => db.prepare('DELETE FROM potatoq_jobs WHERE queue = ? AND state IN (0, 1)').run(queue).changes)
          .immediate();
        return { brokerId: config.id, queue, removed };
      }),
    enqueue: (req: EnqueueRequest) => act(() => enqueueMessage(writer(), config.id, req)),
    previewEnqueue: async (req: EnqueueRequest) => previewPotatoqEnqueue(config.id, req),
    close: () => conns.close(),
  };
}
