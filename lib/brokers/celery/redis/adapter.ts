import 'server-only';
import type { Redis } from 'ioredis';
import { ConsoleError } from '@/lib/brokers/errors';
import { parseOptions } from '@/lib/brokers/options';
import { parseRedisUrl } from '@/lib/transports/redis/url';
import { connectRedis } from '@/lib/transports/redis/server';
import { noWorkflows, type Capabilities, type EnqueuePreview } from '@/lib/brokers/schema';
import { capabilitiesOf, off } from '@/lib/brokers/kit/capabilities';
import { celeryFates } from '../fate';
import type { BrokerAdapter, StoreConfig } from '@/lib/brokers/types';
import { celeryCall } from '../command';
import { celeryDeadHistogram } from '../histogram';
import { CELERY_NO_PAUSE, CELERY_NO_TASK_RANGE, CELERY_NO_WORKFLOWS, CELERY_REDIS_MODEL } from '../model';
import { ZCeleryOptions } from '../options';
import { NO_BACKEND, type CeleryRedisCtx } from './context';
import { celeryRedisKeys } from './keys';
import { listWorkers, overviewOf } from './overview';
import { inspect, isNoPerm, PIDBOX_REFUSED } from './pidbox';
import { deadCounts, deadGroups, getDead, getResult, listDead, listResults } from './reads-dead';
import { getTask, listTasks } from './reads-tasks';
import { celeryRedisFamily } from './family';
import { checkCeleryRedisAccess } from './access';
import { discardDead } from './failures';
import { enqueue, previewMessage, purge, redisReplayBroker, replayDead, revoke } from './writes';
import { previewEditedCelery, replayEditedCelery } from '../edit-replay';
import { discoverQueues, walkQueue } from './lists';
import { HEADS, ReadBudget, SCAN_BYTES } from './read-profile';
import { newReadStats } from './read-script';
import { singleFlight } from './flight';
import { closeResultIndex } from './indexed';
import { keptPings } from '../pings';
import { diagnoseRedis } from './diagnose';
import { findCall, importCall } from './import';
import { callOfFailure } from '../calls';
import { peekWaiting, takeWaiting, tookWaiting } from './waiting';
import { memoRoutes } from '../route';
import { readRedisRoutes } from './routes';
import { foldSightings } from '@/lib/brokers/task-queues';

/**
 * A plain Celery 5.7 app's Redis broker (kombu's lists per queue and priority bucket, its
 * `unacked` hash) and its Redis result backend (`celery-task-meta-*`). Options: see
 * ../options.ts and docs/systems/celery.md.
 */
export function createCeleryRedisAdapter(
  config: StoreConfig,
  /** Handed the adapter's context once built: tests read its `stats` (what the reads cost). */
  observe?: (ctx: CeleryRedisCtx) => void,
): BrokerAdapter {
  const o = parseOptions(ZCeleryOptions, config.options);
  if (o.deadLetterQueue !== undefined || o.deadBrowseLimit !== undefined)
    throw new ConsoleError(
      'InvalidInput',
      'broker option deadLetterQueue: only a Celery app on RabbitMQ has a dead-letter queue (x-dead-letter-exchange)',
    );
  const client = connectRedis(config.url);
  const backendUrl = o.resultBackend && o.resultBackend !== 'none' ? o.resultBackend : null;
  let backend: Redis | null = null;
  if (backendUrl) {
    if (!/^(redis|rediss|unix):/i.test(backendUrl))
      throw new ConsoleError('InvalidInput', 'broker option resultBackend: only a Redis result backend (redis://, rediss://) is supported');
    backend = connectRedis(backendUrl);
  }
  const ctx: CeleryRedisCtx = {
    brokerId: config.id,
    client,
    backend,
    keys: celeryRedisKeys(o.globalKeyprefix ?? ''),
    db: parseRedisUrl(config.url).db,
    resultPrefix: o.resultKeyprefix ?? '',
    queues: o.queues,
    visibilityTimeout: o.visibilityTimeout ?? 3600,
    resultExpires: o.resultExpires ?? 86400,
    inspectTimeoutMs: o.inspectTimeoutMs ?? 1000,
    stats: newReadStats(),
  };
  observe?.(ctx);
  const moveRoutes = memoRoutes(() => readRedisRoutes(ctx.client, ctx.keys));
  let serverInfo: string | null = null;
  const shared = singleFlight();
  // The workers answer a broadcast ping within its window (500 ms): kept between overviews.
  const workersSeen = keptPings(() =>
    // A login the ACL keeps off the pidbox still sees the queues; the workers are unknown.
    inspect(ctx, 'ping', Math.min(500, ctx.inspectTimeoutMs)).catch((e: unknown) => {
      if (isNoPerm(e)) return null;
      throw e;
    }),
  );

  async function capabilities(): Promise<Capabilities> {
    if (serverInfo === null) {
      const info = await client.info('server');
      serverInfo = `Redis ${/redis_version:([^\r\n]+)/.exec(info)?.[1] ?? '?'} (kombu transport, db ${ctx.db})`;
    }
    return capabilitiesOf(
      CELERY_REDIS_MODEL.states,
      { pause: CELERY_NO_PAUSE, taskRange: CELERY_NO_TASK_RANGE },
      noWorkflows(CELERY_NO_WORKFLOWS),
      !backend && off(['browseDead', 'deadRange', 'replay', 'discard', 'results', 'resultRange', 'fate'], NO_BACKEND),
    );
  }

  async function taskNames(): Promise<string[]> {
    const names = new Set<string>();
    const budget = new ReadBudget(SCAN_BYTES);
    for (const q of await discoverQueues(client, ctx.keys, ctx.queues))
      for await (const it of walkQueue(ctx, q, HEADS, budget, undefined, 2000)) if (it.env.info.task) names.add(it.env.info.task);
    if (backend) for (const n of (await deadCounts(ctx)).names) names.add(n);
    const registered = await inspect(ctx, 'registered').catch((e: unknown) => {
      if (isNoPerm(e)) return new Map<string, unknown>();
      throw e;
    });
    for (const reply of registered.values())
      if (Array.isArray(reply)) for (const n of reply) if (typeof n === 'string') names.add(n.split(' ')[0]!);
    return [...names].sort();
  }

  /** Each task's queues from the waiting messages `taskNames` walks (a FAILURE record names none). */
  async function taskQueues(): Promise<Record<string, string[]>> {
    const rows: Array<{ task: string | null; queue: string }> = [];
    const budget = new ReadBudget(SCAN_BYTES);
    for (const q of await discoverQueues(client, ctx.keys, ctx.queues))
      for await (const it of walkQueue(ctx, q, HEADS, budget, undefined, 2000)) rows.push({ task: it.env.info.task ?? null, queue: q });
    return foldSightings(rows);
  }

  return {
    id: config.id,
    name: config.name,
    kind: 'redis',
    model: CELERY_REDIS_MODEL,
    capabilities,
    overview: () =>
      shared('overview', async () => {
        const caps = await capabilities();
        const [o2, pings] = await Promise.all([overviewOf(ctx, { id: config.id, name: config.name, serverInfo }), workersSeen()]);
        if (!pings.value) return { ...o2, capabilities: caps, workers: null, unknownWhy: { ...o2.unknownWhy, workers: PIDBOX_REFUSED } };
        return {
          ...o2,
          capabilities: caps,
          workers: { alive: pings.value.size, stale: 0 },
          workersReadAt: new Date(pings.at).toISOString(),
        };
      }),
    checkAccess: () =>
      checkCeleryRedisAccess(
        ctx,
        parseRedisUrl(config.url).username ?? 'default',
        backendUrl ? (parseRedisUrl(backendUrl).username ?? 'default') : null,
      ),
    listTasks: (q) => shared(`tasks ${JSON.stringify(q)}`, () => listTasks(ctx, q)),
    getTask: (id) => shared(`task ${id}`, () => getTask(ctx, id)),
    listDead: (q) => listDead(ctx, q),
    deadGroups: (q) => deadGroups(ctx, q),
    deadHistogram: (q) => celeryDeadHistogram(ctx, q),
    getDead: (id) => getDead(ctx, id),
    family: (id, q) => celeryRedisFamily(ctx, id, q.limit),
    listWorkers: () => listWorkers(ctx),
    listResults: (q) => listResults(ctx, q),
    getResult: (id) => getResult(ctx, id),
    fate: (ids) =>
      celeryFates(
        ids,
        {
          getTask: (id) => shared(`task ${id}`, () => getTask(ctx, id)),
          getDead: (id) => getDead(ctx, id),
          getResult: (id) => getResult(ctx, id),
          resultExpires: ctx.resultExpires,
        },
        CELERY_REDIS_MODEL.states,
      ),
    taskNames: () => shared('task names', taskNames),
    taskQueues: () => shared('task queues', taskQueues),
    diagnose: (q) => diagnoseRedis(ctx, q),
    replayDead: (ids) => replayDead(ctx, ids),
    previewReplayEdited: (id, edit) => previewEditedCelery(ctx, CELERY_REDIS_MODEL, id, edit, redisReplayBroker(ctx)),
    replayEdited: (id, edit) => replayEditedCelery(ctx, CELERY_REDIS_MODEL, id, edit, redisReplayBroker(ctx)),
    discardDead: (ids) => discardDead(ctx, ids),
    exportCall: (id) => callOfFailure(ctx, id, moveRoutes),
    peekWaiting: (id) => peekWaiting(ctx, id),
    takeWaiting: (id, claim) => takeWaiting(ctx, id, claim),
    tookWaiting: (id) => tookWaiting(ctx, id),
    importCall: (call) => importCall(ctx, call),
    findCall: (id) => findCall(ctx, id),
    revoke: (ids) => revoke(ctx, ids),
    purge: (queue) => purge(ctx, queue),
    enqueue: (req) => enqueue(ctx, req),
    previewEnqueue: async (req): Promise<EnqueuePreview> => {
      const { input, built } = previewMessage(req);
      return {
        brokerId: config.id,
        id: built.id,
        queue: input.queue,
        task: input.task,
        state: input.etaMs !== null && input.etaMs > Date.now() ? 'scheduled' : 'ready',
        payload: built.json,
        preview: true,
        command: celeryCall(req),
      };
    },
    close: async () => {
      closeResultIndex(ctx);
      client.disconnect();
      backend?.disconnect();
    },
  };
}
