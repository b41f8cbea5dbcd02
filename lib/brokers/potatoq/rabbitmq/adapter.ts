import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import { noWorkflows, type ActionResult, type Capabilities } from '@/lib/brokers/schema';
import type { BrokerAdapter, StoreConfig } from '@/lib/brokers/types';
import { capabilitiesOf, off, unsupported } from '@/lib/brokers/kit/capabilities';
import { AmqpLink } from '@/lib/transports/amqp/connection';
import type { RabbitCtx } from './context';
import type { PaceOptions } from './letter-actions';
import type { RedriveOptions } from './redrive';
import { Management } from '@/lib/transports/amqp/management';
import { previewEditedRabbit, replayEditedRabbit } from './edit-replay';
import { deadGroups, deadHistogram, getDead, listDead, overview, taskNames } from './reads';
import { deadIds } from './scan';
import { rabbitFates } from './fate';
import { rabbitFamily, RABBITMQ_NO_FAMILY } from './family';
import { checkRabbitAccess } from './access';
import { parseOptions } from '@/lib/brokers/options';
import { ZRabbitmqOptions } from '../options';
import { createResultBackend } from '../result-backend';
import { V3_BROWSE_REFUSAL } from './topology';
import { parseAmqpUrl, parseManagement } from '@/lib/transports/amqp/url';
import { convertCelery, discardDead, enqueue, purge, replayDead, replayDeadPaced, revoke } from './writes';
import { previewPotatoqEnqueue } from '../enqueue-preview';
import { POTATOQ_NO_PAUSE, POTATOQ_NO_RESULT_RANGE, POTATOQ_NO_WORKFLOWS, POTATOQ_RABBITMQ_MODEL } from '../model';
import { callOfLetter } from '../calls';
import { diagnosePotatoq } from '../diagnose';

const NO_RUNNING_VIEW =
  "RabbitMQ does not say which message a consumer holds, nor since when: unacknowledged messages go back to their queue when the consumer's connection closes (or its consumer timeout passes), so RabbitMQ itself redelivers a lost worker's tasks";
const NO_DELAYED_VIEW =
  "RabbitMQ: delayed tasks wait in potatoq's potatoq.delay.* queues and can't be read without taking them; RabbitMQ moves each one when its delay expires";

const NO_LISTING = "RabbitMQ can't list queued messages without taking them from the workers: counts only";
const NO_SCHEDULED =
  "RabbitMQ: delayed tasks wait in potatoq's 28 potatoq.delay.Lnn queues; their total is shown, but their target queues are only in each message's routing key, which can't be read without taking the message";

/** What a broker without `resultBackend` cannot do: its marks, results and heartbeats live there. */
const NO_BACKEND_CAPS = {
  ...off(['revoke'], 'Revoking tasks with RabbitMQ needs a result backend: set resultBackend to the result_backend potatoq uses'),
  ...off(['results'], 'RabbitMQ stores no results: set resultBackend to the result_backend potatoq uses'),
  ...off(['workers'], "potatoq's workers write heartbeats to the result backend: set resultBackend"),
  ...off(
    ['fate'],
    "RabbitMQ keeps no results, so a replayed task's fate can't be told: set resultBackend to the result_backend potatoq uses",
  ),
};

export interface RabbitmqAdapter extends BrokerAdapter {
  /** Replay with pacing, progress and cancellation in one pass over the DLQs (bulk redrive). */
  replayDeadPaced(ids: string[], pace: RedriveOptions): Promise<ActionResult>;
  convertCelery(ids: string[], pace?: PaceOptions): Promise<ActionResult>;
}

/**
 * potatoq's RabbitMQ broker (26.1a8) alongside its workers. Options (the broker's entry in
 * POTATOQ_CONSOLE_BROKERS): `managementUrl` (+ `managementUser`/`managementPassword`,
 * default the AMQP login), `resultBackend` (potatoq's `result_backend` URL: redis://,
 * postgresql:// or sqlite://) with `resultBackendOptions` (its transport options, e.g.
 * `{"prefix": "potatoq"}`), `queues` (queue names to show without a management API),
 * `resultExpires` (86400), `timeoutMs` (10000), `deadBrowseLimit` (10000 letters held per DLQ).
 */
export function createRabbitmqAdapter(config: StoreConfig): RabbitmqAdapter {
  const o = parseOptions(ZRabbitmqOptions, config.options);
  const timeoutMs = o.timeoutMs ?? 10_000;
  const target = parseAmqpUrl(config.url);
  const mgmtTarget = parseManagement(o, target);
  const mgmt = mgmtTarget ? new Management(mgmtTarget, timeoutMs) : null;
  const ctx: RabbitCtx = {
    config,
    target,
    // A refused browse names the console holding the DLQ where the management API can say.
    link: new AmqpLink(target, timeoutMs, mgmt ? (q) => mgmt.lockHolder(target.vhost, q) : undefined),
    mgmt,
    backend: createResultBackend(o, config.id, timeoutMs),
    lockKey: `${target.display}`,
    // Without the management API only named queues can be counted: potatoq's default one unless configured.
    knownQueues: o.queues ?? (mgmtTarget ? [] : ['default']),
    exactCountsUpTo: o.exactCountsUpTo ?? 500,
    browseLimit: o.deadBrowseLimit ?? 10_000,
    live: { staleAfter: 3 * (o.workerHeartbeatInterval ?? 5), deadAfter: o.workerDeadAfter ?? 60 },
    resultExpires: o.resultExpires ?? 86400,
  };

  async function capabilities(): Promise<Capabilities> {
    const server = await ctx.link.serverInfo();
    return capabilitiesOf(
      POTATOQ_RABBITMQ_MODEL.states,
      { pause: POTATOQ_NO_PAUSE, resultRange: POTATOQ_NO_RESULT_RANGE },
      noWorkflows(POTATOQ_NO_WORKFLOWS),
      off(['list:ready', 'list:running', 'taskRange'], NO_LISTING),
      off(['list:scheduled'], NO_SCHEDULED),
      server.major < 4 && off(['browseDead', 'deadRange', 'replay', 'discard', 'fate'], V3_BROWSE_REFUSAL),
      !ctx.backend && NO_BACKEND_CAPS,
      // The family reads the DLQs (4.x only) and the result backend: off only with neither.
      !ctx.backend && server.major < 4 && off(['family'], RABBITMQ_NO_FAMILY),
    );
  }
  const refuse = unsupported(NO_LISTING);
  const needBackend = () => {
    if (!ctx.backend) throw new ConsoleError('Unsupported', 'RabbitMQ stores no results or heartbeats: set resultBackend');
    return ctx.backend;
  };

  return {
    id: config.id,
    name: config.name,
    kind: 'rabbitmq',
    model: POTATOQ_RABBITMQ_MODEL,
    capabilities,
    overview: async () => overview(ctx, await capabilities()),
    checkAccess: () => checkRabbitAccess(ctx),
    listTasks: refuse,
    getTask: refuse,
    listDead: (q) => listDead(ctx, q),
    deadIds: (q, cap) => deadIds(ctx, q, cap),
    deadGroups: (q) => deadGroups(ctx, q),
    getDead: (id) => getDead(ctx, id),
    deadHistogram: (q) => deadHistogram(ctx, q),
    listWorkers: async () => (ctx.backend ? ctx.backend.workers(ctx.live) : []),
    listResults: async (q) => needBackend().listResults(q),
    getResult: async (id) => needBackend().getResult(id),
    fate: async (ids) => rabbitFates(ctx, ids),
    taskNames: () => taskNames(ctx),
    diagnose: async (q) => {
      const ov = await overview(ctx, await capabilities());
      return diagnosePotatoq({
        brokerId: config.id,
        queues: ov.queues,
        workers: ctx.backend
          ? { value: await ctx.backend.workers(ctx.live) }
          : { why: "potatoq's workers write heartbeats to the result backend: set resultBackend" },
        running: { why: NO_RUNNING_VIEW },
        overdue: { why: NO_DELAYED_VIEW },
        overdueSeconds: q.overdueSeconds,
        deadAfter: ctx.live.deadAfter,
        revoke: q.revoke,
      });
    },
    replayDead: async (ids) => replayDead(ctx, ids),
    replayDeadPaced: async (ids, pace) => replayDeadPaced(ctx, ids, pace),
    previewReplayEdited: (id, edit) => previewEditedRabbit(ctx, id, edit),
    replayEdited: (id, edit) => replayEditedRabbit(ctx, id, edit),
    convert: async (ids) => convertCelery(ctx, ids),
    convertCelery: async (ids, pace) => convertCelery(ctx, ids, pace),
    discardDead: async (ids) => discardDead(ctx, ids),
    exportCall: async (id) => {
      const d = await getDead(ctx, id);
      return d && callOfLetter(d);
    },
    family: (id, q) => rabbitFamily(ctx, id, q.limit),
    revoke: async (ids) => revoke(ctx, ids),
    purge: async (queue) => purge(ctx, queue),
    enqueue: async (req) => enqueue(ctx, req),
    previewEnqueue: async (req) => previewPotatoqEnqueue(config.id, req),
    close: async () => {
      await ctx.link.close();
      await ctx.backend?.close();
    },
  };
}
