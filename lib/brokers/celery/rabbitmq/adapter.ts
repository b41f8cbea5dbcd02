import 'server-only';
import { celeryCounts, countIn, type CeleryCountKey } from '../counts';
import type { Redis } from 'ioredis';
import { ConsoleError } from '@/lib/brokers/errors';
import { parseOptions } from '@/lib/brokers/options';
import { AmqpLink } from '@/lib/transports/amqp/connection';
import { Management, type MgmtQueue } from '@/lib/transports/amqp/management';
import { groupsNote, windowNote, type DeepDlq } from '@/lib/transports/amqp/dlq-notes';
import { parseAmqpUrl, parseManagement } from '@/lib/transports/amqp/url';
import { connectRedis } from '@/lib/transports/redis/server';
import { noWorkflows, listing, type ActionResult, type BrokerOverview, type Capabilities, type QueueStats } from '@/lib/brokers/schema';
import { capabilitiesOf, off, on, unsupported } from '@/lib/brokers/kit/capabilities';
import { actionResult } from '@/lib/brokers/kit/results';
import type { BrokerAdapter, ReplayPace, StoreConfig } from '@/lib/brokers/types';
import { CELERY_NO_PAUSE, CELERY_NO_TASK_RANGE, CELERY_NO_WORKFLOWS, CELERY_RABBITMQ_MODEL } from '../model';
import { ZCeleryOptions } from '../options';
import { NO_BACKEND, type ResultCtx } from '../redis/context';
import { closeResultIndex } from '../redis/indexed';
import { keptPings } from '../pings';
import { celeryFamily } from '../redis/family';

/** AMQP hands a queued message only to a consumer that takes it: none is read by id. */
const RABBITMQ_FAMILY_WHY =
  'RabbitMQ lets a queued message be read only by taking it off its queue, so waiting members are not read: the family is what the result backend stores (finished and failed tasks, their children, chord counters)';
import { callOfFailure } from '../calls';
import { celeryCall } from '../command';
import { celeryDeadHistogram } from '../histogram';
import { discardDead, ok, replayFailures, type ReplayBroker } from '../redis/failures';
import { memoRoutes, type QueueRoutes } from '../route';
import { previewEditedCelery, replayEditedCelery } from '../edit-replay';
import {
  CAPPED_NOTE,
  DEAD_COUNT_CAPPED_WHY,
  deadCounts,
  deadGroups,
  failureEntries,
  failureIds,
  getDead,
  getResult,
  listDead,
  listResults,
} from '../redis/reads-dead';
import { DeadGrouper } from '@/lib/triage/groups';
import { buildSendTask, sendTaskInput, type BuiltCeleryMessage, type SendTaskInput } from '../send-task';
import { broadcastRevoke, checkQueues, inspect, publishTask, purgeQueue } from './amqp';
import { INSPECT_REFUSED, accessRefused, checkCeleryRabbitAccess } from './access';
import { workersFrom } from '../workers';
import {
  CELERY_V3_DLQ_REFUSAL,
  editedReplayRefusal,
  getCeleryLetter,
  letterEntries,
  letterFingerprint,
  mergeDead,
  readCeleryLetters,
  type CeleryDlq,
} from './dlq';
import { actOnCeleryDead } from './dlq-actions';
import { withDeadLetterQueue } from './dlq-model';
import { diagnoseRabbit } from './diagnose';
import { celeryWorkQueues } from './queues';
import { rabbitCeleryFates } from './fate';

export const NO_BROWSE =
  "RabbitMQ can't show queued messages without taking them from the workers (no browse; a get-and-requeue reorders and redelivers them): counts only";
const NO_SCHEDULED =
  "RabbitMQ: a Celery ETA message waits in its queue among the ready ones until a worker reserves it (then it is unacknowledged); the broker can't tell them apart without taking them";
const NO_OLDEST = 'RabbitMQ does not say when its oldest ready message was enqueued without taking it';

/**
 * A plain Celery 5.7 app on RabbitMQ (3.10 or 4.x): counts from passive declares and the
 * management API, enqueue/purge/revoke over AMQP, failures and results from its Redis backend.
 */
export function createCeleryRabbitAdapter(config: StoreConfig): BrokerAdapter {
  const o = parseOptions(ZCeleryOptions, config.options);
  const target = parseAmqpUrl(config.url);
  const mgmtTarget = parseManagement(o, target);
  const mgmt = mgmtTarget ? new Management(mgmtTarget, 10_000) : null;
  const link = new AmqpLink(target, 10_000, mgmt ? (q) => mgmt.lockHolder(target.vhost, q) : undefined);
  const backendUrl = o.resultBackend && o.resultBackend !== 'none' ? o.resultBackend : null;
  if (backendUrl && !/^(redis|rediss|unix):/i.test(backendUrl))
    throw new ConsoleError('InvalidInput', 'broker option resultBackend: only a Redis result backend (redis://, rediss://) is supported');
  const backend: Redis | null = backendUrl ? connectRedis(backendUrl) : null;
  const rctx: ResultCtx = { brokerId: config.id, backend, resultPrefix: o.resultKeyprefix ?? '', resultExpires: o.resultExpires ?? 86400 };
  const inspectMs = o.inspectTimeoutMs ?? 1000;
  const dlq: CeleryDlq | null = o.deadLetterQueue
    ? { link, lockKey: target.display, name: o.deadLetterQueue, limit: o.deadBrowseLimit ?? 10_000 }
    : null;

  const send = (input: SendTaskInput, built: BuiltCeleryMessage) => publishTask(link, input, built);
  // RabbitMQ can't tell whether a message with the id is queued: no conflict check.
  // The record's queue may be a routing key (../route.ts): resolved through the management API's
  // bindings when it is configured, else used as is.
  const routes = async (): Promise<QueueRoutes> => ({
    bindings: mgmt ? await mgmt.queueBindings(target.vhost) : [],
    isQueue: async (name) => (await link.checkQueue(name)) !== null,
  });
  const rabbitBroker: ReplayBroker = { live: async () => null, send, ...(mgmt ? { routes } : {}) };
  const moveRoutes = mgmt ? memoRoutes(routes) : undefined;
  /** An edited replay sends from the FAILURE record: a task whose message also waits in the DLQ
   *  would then run again from there, so it is refused (replay it without edits). */
  const notInDlq = async (id: string) => {
    if (dlq && (await readCeleryLetters(dlq)).some((l) => l.id === id))
      throw new ConsoleError('Conflict', `${id}: ${editedReplayRefusal(dlq.name)}`);
  };

  async function capabilities(): Promise<Capabilities> {
    const server = await link.serverInfo();
    return capabilitiesOf(
      CELERY_RABBITMQ_MODEL.states,
      { pause: CELERY_NO_PAUSE, taskRange: CELERY_NO_TASK_RANGE },
      noWorkflows(CELERY_NO_WORKFLOWS),
      // Celery on RabbitMQ declares no scheduled state (its ETAs wait among the ready ones).
      listing(CELERY_RABBITMQ_MODEL.states, { on: false, why: NO_BROWSE }),
      !backend && off(['browseDead', 'deadRange', 'replay', 'discard', 'results', 'resultRange', 'fate'], NO_BACKEND),
      !backend && off(['family'], `${RABBITMQ_FAMILY_WHY}, and ${NO_BACKEND}`),
      // The DLQ's letters are shown, replayed and discarded without a result backend too (they
      // are messages, not records).
      dlq && (server.major < 4 ? off(['browseDead'], CELERY_V3_DLQ_REFUSAL) : on(['browseDead', 'replay', 'discard'])),
    );
  }

  /** The app's work queues (queues.ts has the rule), with what was read to find them. */
  async function queueNames(): Promise<{
    names: string[];
    stats: MgmtQueue[] | null;
    dead: Awaited<ReturnType<typeof deadCounts>> | null;
  }> {
    const [stats, bindings, dead] = await Promise.all([
      mgmt ? mgmt.queues(target.vhost) : Promise.resolve(null),
      mgmt && !o.queues?.length ? mgmt.queueBindings(target.vhost) : Promise.resolve([]),
      backend ? deadCounts(rctx) : Promise.resolve(null),
    ]);
    if (o.queues?.length) return { names: [...new Set(o.queues)].sort(), stats, dead };
    if (!stats) return { names: ['celery'], stats, dead };
    const seen = dead ? [...dead.byQueue.keys()].filter(Boolean) : [];
    return {
      names: celeryWorkQueues(
        stats.map((q) => q.name),
        bindings,
        seen,
        o.deadLetterQueue,
      ),
      stats,
      dead,
    };
  }

  // The workers answer a broadcast ping within its window (500 ms): kept between overviews.
  const workersSeen = keptPings(() =>
    // A login that may not bind the reply queue (no write permission) still sees the queues.
    inspect(link, 'ping', Math.min(500, inspectMs)).catch((e: unknown) => {
      if (accessRefused(e)) return null;
      throw e;
    }),
  );

  async function overview(): Promise<BrokerOverview> {
    const caps = await capabilities();
    const server = await link.serverInfo();
    const { names, stats, dead } = await queueNames();
    const [passive, seen, letters] = await Promise.all([
      checkQueues(link, names),
      workersSeen(),
      dlq ? link.checkQueue(dlq.name) : Promise.resolve(null),
    ]);
    const pings = seen.value;
    // The DLQ's messages count as dead in the totals (which queue each came from needs a browse).
    // A task rejected into the DLQ after failing has a FAILURE record too, and how many are in
    // both takes a browse: with both sources non-empty the total is a lower bound, the larger.
    const held = letters?.messages ?? 0;
    const overlap = dead !== null && dead.total > 0 && held > 0;
    const deadTotal = dead ? (overlap ? Math.max(dead.total, held) : dead.total + held) : null;
    const byName = new Map((stats ?? []).map((q) => [q.name, q]));
    // A queue that refused the passive declare (locked by another connection) is not shown.
    const queues: QueueStats[] = names
      .filter((name) => passive.has(name))
      .map((name) => ({
        name,
        counts: celeryCounts(passive.get(name)?.messages ?? 0, null, stats ? (byName.get(name)?.unacked ?? 0) : null),
        dead: dead ? (dead.byQueue.get(name) ?? 0) : null,
        oldestWaitingAt: null,
        tasks: null,
        consumers: passive.get(name)?.consumers ?? null,
        ...(dead?.capped ? { capped: { dead: { atLeast: dead.byQueue.get(name) ?? 0, estimate: null, why: DEAD_COUNT_CAPPED_WHY } } } : {}),
      }));
    const sum = (k: CeleryCountKey) =>
      queues.some((q) => countIn(q, k) === null) ? null : queues.reduce((n, q) => n + (countIn(q, k) ?? 0), 0);
    return {
      id: config.id,
      name: config.name,
      kind: 'rabbitmq',
      serverInfo: `${server.product} ${server.version} at ${target.display}${backend ? '; results in Redis' : '; no result backend'}`,
      readOnly: false,
      capabilities: caps,
      queues,
      totals: { counts: celeryCounts(sum('ready'), null, sum('running')), dead: deadTotal },
      ...((overlap || dead?.capped) && deadTotal !== null
        ? { totalsCapped: { dead: { atLeast: deadTotal, estimate: null, ...(dead?.capped ? { why: DEAD_COUNT_CAPPED_WHY } : {}) } } }
        : {}),
      workers: pings ? { alive: pings.size, stale: 0 } : null,
      ...(pings ? { workersReadAt: new Date(seen.at).toISOString() } : {}),
      unknownWhy: {
        scheduled: NO_SCHEDULED,
        oldest: NO_OLDEST,
        ...(pings ? {} : { workers: INSPECT_REFUSED }),
        ...(mgmt ? {} : { running: 'no management API is configured (managementUrl): unacknowledged counts are unknown' }),
        ...(backend ? {} : { dead: NO_BACKEND }),
      },
      readAt: new Date().toISOString(),
    };
  }

  const refuse = unsupported(NO_BROWSE);

  async function revoke(ids: string[]): Promise<ActionResult> {
    await broadcastRevoke(link, ids);
    const sent = 'revoke broadcast to live workers (the message stays in RabbitMQ; a worker that knows the id drops it when it gets it)';
    return actionResult(
      'revoke',
      config.id,
      ids,
      ids.map((id) => ok(id, sent)),
    );
  }

  return {
    id: config.id,
    name: config.name,
    kind: 'rabbitmq',
    model: dlq ? withDeadLetterQueue(CELERY_RABBITMQ_MODEL, dlq.name) : CELERY_RABBITMQ_MODEL,
    capabilities,
    overview,
    checkAccess: () => checkCeleryRabbitAccess(link, target.vhost, mgmt),
    listTasks: refuse,
    getTask: refuse,
    listDead: async (q) => {
      if (!dlq) return listDead(rctx, q);
      const deep: DeepDlq[] = [];
      const letters = await readCeleryLetters(dlq, deep);
      const failures = backend ? (await listDead(rctx, { ...q, cursor: undefined, limit: Number.MAX_SAFE_INTEGER })).items : [];
      const page = mergeDead(failures, backend ? await failureIds(rctx) : new Set(), letters, q);
      return deep.length ? { ...page, window: windowNote(deep, dlq.limit) } : page;
    },
    deadGroups: async (q) => {
      if (!dlq) return deadGroups(rctx, q);
      // One group per error over records and letters: a task in both counts once, by its record.
      const deep: DeepDlq[] = [];
      const letters = await readCeleryLetters(dlq, deep);
      const g = new DeadGrouper();
      const records = backend ? await failureEntries(rctx, q) : { entries: [], capped: false };
      for (const e of records.entries) g.add(e);
      for (const e of letterEntries(letters, backend ? await failureIds(rctx) : new Set(), q)) g.add(e);
      const notes = [deep.length ? groupsNote(deep, dlq.limit) : '', records.capped ? CAPPED_NOTE : ''].filter(Boolean);
      return g.answer(notes.join(' ') || null);
    },
    getDead: async (id) => {
      const record = backend ? await getDead(rctx, id) : null;
      return dlq ? getCeleryLetter(dlq, id, record) : record;
    },
    // With a deadLetterQueue on RabbitMQ 3.x the browse (and so this) is refused with its reason.
    deadHistogram: (q) =>
      celeryDeadHistogram(rctx, q, dlq ? { read: () => readCeleryLetters(dlq), groupKey: (l) => letterFingerprint(l).key } : undefined),
    listWorkers: async () => workersFrom((m) => inspect(link, m, inspectMs)),
    listResults: (q) => listResults(rctx, q),
    getResult: (id) => getResult(rctx, id),
    fate: (ids) => rabbitCeleryFates(rctx, ids),
    family: (id, q) => celeryFamily(rctx, { why: RABBITMQ_FAMILY_WHY }, id, q.limit),
    taskNames: async () => {
      const names = new Set(backend ? (await deadCounts(rctx)).names : []);
      for (const w of await workersFrom((m) => inspect(link, m, inspectMs), ['registered']))
        for (const n of w.registered ?? []) names.add(n);
      return [...names].sort();
    },
    replayDead: (ids) => (dlq ? actOnCeleryDead(dlq, rctx, 'replay', ids, rabbitBroker) : replayFailures(rctx, ids, rabbitBroker)),
    ...(dlq ? { replayDeadPaced: (ids: string[], pace: ReplayPace) => actOnCeleryDead(dlq, rctx, 'replay', ids, rabbitBroker, pace) } : {}),
    // Edits replay a FAILURE record (result_extended); a letter only in the DLQ is not one (NotFound).
    previewReplayEdited: async (id, edit) => (await notInDlq(id), previewEditedCelery(rctx, CELERY_RABBITMQ_MODEL, id, edit, rabbitBroker)),
    replayEdited: async (id, edit) => (await notInDlq(id), replayEditedCelery(rctx, CELERY_RABBITMQ_MODEL, id, edit, rabbitBroker)),
    discardDead: (ids) => (dlq ? actOnCeleryDead(dlq, rctx, 'discard', ids, rabbitBroker) : discardDead(rctx, ids)),
    // FAILURE records only: a DLQ message is not read as a call (yet).
    exportCall: async (id) => (backend ? callOfFailure(rctx, id, moveRoutes) : null),
    revoke,
    diagnose: (q) => diagnoseRabbit(config.id, overview, (m) => inspect(link, m, inspectMs), inspectMs, q),
    purge: async (queue) => ({ brokerId: config.id, queue, removed: await purgeQueue(link, queue) }),
    enqueue: async (req) => {
      const input = sendTaskInput(req);
      const built = buildSendTask(input);
      await publishTask(link, input, built);
      return {
        brokerId: config.id,
        id: built.id,
        queue: input.queue,
        task: input.task,
        state: input.etaMs !== null && input.etaMs > Date.now() ? 'scheduled' : 'ready',
        payload: built.body,
      };
    },
    previewEnqueue: async (req) => {
      const input = sendTaskInput(req);
      const built = buildSendTask(input);
      return {
        brokerId: config.id,
        id: built.id,
        queue: input.queue,
        task: input.task,
        state: input.etaMs !== null && input.etaMs > Date.now() ? 'scheduled' : 'ready',
        payload: built.body,
        preview: true,
        command: celeryCall(req),
      };
    },
    close: async () => {
      closeResultIndex(rctx);
      await link.close();
      backend?.disconnect();
    },
  };
}
