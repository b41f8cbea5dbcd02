import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import { groupsNote, windowNote, type DeepDlq } from '@/lib/transports/amqp/dlq-notes';
import type { ActionResult } from '@/lib/brokers/schema';
import { unsupported } from '@/lib/brokers/kit/capabilities';
import { actionResult } from '@/lib/brokers/kit/results';
import type { BrokerAdapter, ReplayPace, StoreConfig } from '@/lib/brokers/types';
import { CELERY_RABBITMQ_MODEL } from '../model';
import { closeResultIndex } from '../redis/indexed';
import { celeryFamily } from '../redis/family';
import { callOfFailure } from '../calls';
import { celeryCall } from '../command';
import { celeryDeadHistogram } from '../histogram';
import { discardDead, ok, replayFailures, type ReplayBroker } from '../redis/failures';
import { memoRoutes, type QueueRoutes } from '../route';
import { previewEditedCelery, replayEditedCelery } from '../edit-replay';
import {
  CAPPED_NOTE,
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
import { broadcastRevoke, inspect, publishTask, purgeQueue } from './amqp';
import { checkCeleryRabbitAccess } from './access';
import { workersFrom } from '../workers';
import { editedReplayRefusal, getCeleryLetter, letterEntries, letterFingerprint, mergeDead, readCeleryLetters } from './dlq';
import { actOnCeleryDead } from './dlq-actions';
import { withDeadLetterQueue } from './dlq-model';
import { diagnoseRabbit } from './diagnose';
import { rabbitCeleryFates } from './fate';
import { openCeleryRabbit } from './context';
import { NO_BROWSE, RABBITMQ_FAMILY_WHY, celeryRabbitOverview } from './overview';

/**
 * A plain Celery 5.7 app on RabbitMQ (3.10 or 4.x): counts from passive declares and the
 * management API, enqueue/purge/revoke over AMQP, failures and results from its Redis backend.
 */
export function createCeleryRabbitAdapter(config: StoreConfig): BrokerAdapter {
  const ctx = openCeleryRabbit(config);
  const { target, mgmt, link, backend, rctx, inspectMs, dlq } = ctx;
  const { capabilities, overview } = celeryRabbitOverview(ctx);

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
      const g = new DeadGrouper(q);
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
