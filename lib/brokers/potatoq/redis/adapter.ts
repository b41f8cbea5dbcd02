import 'server-only';
import { workerTally } from '@/lib/brokers/kit/overview';
import { listPeriodic } from './schedules';
import { readFileSync } from 'node:fs';
import { ConsoleError, isConsoleError } from '@/lib/brokers/errors';
import { noWorkflows, type ActionResult, type BrokerOverview, type Capabilities, type EnqueueRequest } from '@/lib/brokers/schema';
import { potatoqFates } from '../fate';
import type { BrokerAdapter, StoreConfig, TaskCall } from '@/lib/brokers/types';
import { capabilitiesOf } from '@/lib/brokers/kit/capabilities';
import { cachedFor } from '@/lib/brokers/kit/connections';
import { guarded } from '@/lib/brokers/kit/guard';
import { actionResult } from '@/lib/brokers/kit/results';
import { previewPotatoqEnqueue } from '../enqueue-preview';
import { buildInputOfCall, callOfLetter, messageOfCall } from '../calls';
import type { Liveness } from '../heartbeats';
import { POTATOQ_NO_PAUSE, POTATOQ_NO_RESULT_RANGE, POTATOQ_NO_WORKFLOWS, POTATOQ_REDIS_MODEL } from '../model';
import { parseOptions } from '@/lib/brokers/options';
import { ZRedisOptions } from '../options';
import { parsePotatoqEnqueue } from '../enqueue-fields';
import { buildFromFields, potatoqBuildInput } from '../records';
import { createDeadTally } from './dead-tally';
import { DEAD_SCAN, MAX_QUEUES } from './reads-queues';
import { deadGroups, overviewQueues, taskNames, taskQueues } from './dto-overview';
import { getDead, getTask, listDead, listTasks } from './dto-pages';
import { deadHistogram } from './histogram';
import { overdueFacts, runningFacts } from './reads-stuck';
import { diagnosePotatoq } from '../diagnose';
import { potatoqPrefix, redisKeys } from './keys';
import { parseRedisUrl, RedisUrlError, type RedisTarget } from '@/lib/transports/redis/url';
import { redisResultsOn } from './results';
import { redisFamily } from './family';
import { checkPotatoqRedisAccess } from './access';
import { checkServer, connectRedis, evictionCheck, isTlsFailure, redisFailure, type ServerCheck } from '@/lib/transports/redis/server';
import { previewEditedRedis, replayEditedRedis } from './edit-replay';
import { findCall } from './reads-misc';
import { peekWaiting, takeWaiting, tookWaiting } from './waiting';
import { discardDead, discardMoved, enqueueTasks, purgeQueue, replayDead, revokeTasks, type RedisOutcome } from './writes';

/** How long a server check (version, Cluster, eviction policy) is trusted. */
const CHECK_TTL_MS = 30_000;

/**
 * potatoq's Redis / Valkey broker (26.1a8), read and written alongside its workers: the key
 * layout of keys.ts, every write one of the console's own Lua scripts (scripts.ts). The server
 * is checked before the first call and every 30 s after: Redis Cluster or a Redis older than
 * 6.2 is refused (every call fails with the reason), and an eviction policy other than
 * `noeviction` is a warning on the overview, as `potatoq migrate` warns.
 *
 * Options: `global_keyprefix` / `prefix` (potatoq's transport options; default `potatoq`),
 * `timeoutMs` (5000), `searchWindow` (10000 members examined per filtered page),
 * `resultExpires` (86400), `workerHeartbeatInterval` (5), `workerDeadAfter` (60), `tlsCaFile`
 * (a PEM file of the CA a `rediss://` / `valkeys://` server's certificate is checked against).
 */
export function createRedisAdapter(config: StoreConfig): BrokerAdapter {
  const o = parseOptions(ZRedisOptions, config.options);
  let target: RedisTarget;
  try {
    target = parseRedisUrl(config.url);
  } catch (e) {
    if (e instanceof RedisUrlError) throw new ConsoleError('InvalidInput', `url: ${e.message}`, { url: e.message });
    throw e;
  }
  const prefix = potatoqPrefix(o);
  const timeoutMs = o.timeoutMs ?? 5000;
  const window = o.searchWindow ?? 10_000;
  const resultExpires = o.resultExpires ?? 86400;
  const live: Liveness = { staleAfter: 3 * (o.workerHeartbeatInterval ?? 5), deadAfter: o.workerDeadAfter ?? 60 };
  const client = connectRedis(config.url, timeoutMs, o.tlsCaFile ? readCa(o.tlsCaFile, target.tls) : undefined);
  const results = redisResultsOn(client, prefix);
  const where = target.path ?? `${target.host}:${target.port}`;

  /** A Redis error as the console's: unreachable, or (after the command was sent) maybe applied. */
  function mapError(e: unknown, write: boolean): ConsoleError {
    if (isConsoleError(e)) return e;
    const raw = e instanceof Error ? e.message : String(e);
    const msg = redisFailure(client, e).replace(/(rediss?|valkeys?):\/\/\S+/g, '<url>');
    // Nothing is sent before the handshake: a TLS failure never applied a write.
    if (target.tls && isTlsFailure(msg)) {
      return new ConsoleError(
        'BrokerUnavailable',
        `Redis at ${where} (db ${target.db}): the TLS connection failed: ${msg}. Trust the server's CA with the broker option tlsCaFile (a PEM file) or NODE_EXTRA_CA_CERTS, and check that its certificate names ${target.host}`,
      );
    }
    const notSent = /ECONNREFUSED|ENOTFOUND|ENOENT|EHOSTUNREACH|isn't writeable|enableOfflineQueue|NOAUTH|WRONGPASS|NOPERM/.test(raw);
    if (!write || notSent) return new ConsoleError('BrokerUnavailable', `Redis at ${where} (db ${target.db}) failed: ${msg}`);
    return new ConsoleError(
      'BrokerTimeout',
      `Redis at ${where} failed during the write (${msg}); it may have been applied: each id is checked again when retried`,
    );
  }

  const checked = cachedFor(CHECK_TTL_MS, () => checkServer(client));
  // Dead counts per queue kept between polls, re-read where the server reports a change (dead-tally.ts).
  const tally = createDeadTally(client, prefix, { scan: DEAD_SCAN });
  /** Every call starts here: a refused server (Cluster, too old) answers nothing else. */
  async function usable(): Promise<ServerCheck> {
    let s: ServerCheck;
    try {
      s = await checked.get();
    } catch (e) {
      throw mapError(e, false);
    }
    if (s.refusal) throw new ConsoleError('Unsupported', s.refusal);
    return s;
  }
  const sys = guarded(mapError, { ready: usable });
  const read = sys.read;

  /** Per-id outcomes; a call where Redis failed before any id was settled fails as a whole. */
  async function perId(action: ActionResult['action'], ids: string[], run: () => Promise<RedisOutcome[]>): Promise<ActionResult> {
    const out = await sys.act(run);
    const first = out[0];
    if (first && first.detail === 'error' && out.every((x) => x.detail === 'error' || x.detail === 'not-attempted')) {
      throw mapError(new Error(first.message.replace(/^Redis failed: /, '')), true);
    }
    return actionResult(
      action,
      config.id,
      ids,
      out.map((x) => ({ id: x.id, outcome: x.outcome, message: x.message })),
    );
  }

  /** Every capability potatoq's Redis layout allows; potatoq has no queue pause. */
  const caps = (): Capabilities =>
    capabilitiesOf(
      POTATOQ_REDIS_MODEL.states,
      { pause: POTATOQ_NO_PAUSE, resultRange: POTATOQ_NO_RESULT_RANGE },
      noWorkflows(POTATOQ_NO_WORKFLOWS),
    );
  async function capabilities(): Promise<Capabilities> {
    await usable();
    return caps();
  }

  async function overview(): Promise<BrokerOverview> {
    const s = await usable();
    const [found, workers] = await read(() => Promise.all([overviewQueues(client, prefix, tally), results.workers(live)]));
    const warnings: string[] = [];
    if (s.evictionWarning) warnings.push(s.evictionWarning);
    if (found.queuesCapped)
      warnings.push(`${prefix}:queues lists more queues than the console shows (the first ${MAX_QUEUES.toLocaleString('en-US')} by name)`);
    if (found.deadOrphans)
      warnings.push(
        `${found.deadOrphans} dead-letter entries have no task left (potatoq's revoke deletes the task and leaves its entry); discard them from the dead letters`,
      );
    return {
      id: config.id,
      name: config.name,
      kind: 'redis',
      serverInfo: `${s.server === 'valkey' ? 'Valkey' : 'Redis'} ${s.version} · db ${target.db} · prefix ${JSON.stringify(prefix)}`,
      readOnly: false,
      capabilities: caps(),
      queues: found.queues,
      totals: found.totals,
      workers: workerTally(workers),
      ...(warnings.length ? { warnings } : {}),
      readAt: new Date().toISOString(),
    };
  }

  async function enqueue(req: EnqueueRequest) {
    // Validated as potatoq's `call` would (bad input names the field) before anything is written.
    const now = Date.now() / 1000;
    const fields = parsePotatoqEnqueue(req);
    buildFromFields(fields, now);
    const r = (await sys.act(() => enqueueTasks(client, prefix, [{ ...potatoqBuildInput(fields), now }])))[0]!;
    if (r.outcome === 'error') throw mapError(new Error(r.message), true);
    if (r.outcome !== 'ok') throw new ConsoleError('Conflict', r.message);
    return { brokerId: config.id, id: r.id, queue: r.queue, task: req.task, state: r.state, payload: r.payload };
  }

  /** Under the call's id; the script writes nothing where the id's hash exists (waiting,
   *  running or dead here), and a stored result means it already ran here. */
  async function importCall(call: TaskCall): Promise<{ outcome: 'ok' | 'already'; message: string }> {
    messageOfCall(call);
    await usable();
    const done = await read(() => results.getResult(call.id)).catch(() => null);
    if (done) return { outcome: 'already', message: `a task with this id already finished here (${done.status})` };
    const r = (await sys.act(() => enqueueTasks(client, prefix, [buildInputOfCall(call)])))[0]!;
    if (r.outcome === 'error') throw mapError(new Error(r.message), true);
    if (r.outcome !== 'ok') return { outcome: 'already', message: 'a task with this id is already waiting, running or dead here' };
    return { outcome: 'ok', message: `enqueued on ${r.queue} as ${call.task}` };
  }

  return {
    id: config.id,
    name: config.name,
    kind: 'redis',
    model: POTATOQ_REDIS_MODEL,
    capabilities,
    overview,
    checkAccess: async () => {
      const server = await usable();
      return [evictionCheck(server), ...(await read(() => checkPotatoqRedisAccess(client, prefix, target.username ?? 'default')))];
    },
    listTasks: (q) => read(() => listTasks(client, prefix, q, window)),
    getTask: (id) => read(() => getTask(client, prefix, id)),
    listSchedules: () => read(() => listPeriodic(client, prefix)),
    listDead: (q) => read(() => listDead(client, prefix, q, window, (n) => tally.newest(n))),
    deadGroups: (q) => read(() => deadGroups(client, prefix, q)),
    getDead: (id) => read(() => getDead(client, prefix, id)),
    family: (id, q) => read(() => redisFamily(client, prefix, results, id, q.limit)),
    deadHistogram: (q) => read(() => deadHistogram(client, prefix, q, window)),
    diagnose: (q) =>
      read(async () => {
        const [found, workers] = await Promise.all([overviewQueues(client, prefix, tally), results.workers(live)]);
        const names = found.queues.map((x) => x.name);
        const [running, overdue] = await Promise.all([
          runningFacts(client, prefix, names),
          overdueFacts(client, prefix, names, q.overdueSeconds),
        ]);
        const d = diagnosePotatoq({
          brokerId: config.id,
          queues: found.queues,
          workers: { value: workers },
          running: { value: running },
          overdue: { value: overdue },
          overdueSeconds: q.overdueSeconds,
          deadAfter: live.deadAfter,
          revoke: q.revoke,
        });
        // Time limits need a run time, and potatoq on Redis keeps only the lease deadline.
        return {
          ...d,
          notes: d.notes.filter((n) => n.check !== 'over-time-limit'),
          unknown: [
            ...d.unknown,
            {
              check: 'over-time-limit' as const,
              why: 'potatoq on Redis records no claim time (only the lease deadline), so how long a task has run is unknown',
            },
          ],
        };
      }),
    listWorkers: () => read(() => results.workers(live)),
    listResults: (q) => read(() => results.listResults(q)),
    getResult: (id) => read(() => results.getResult(id)),
    fate: (ids) =>
      potatoqFates(
        ids,
        {
          getTask: (id) => read(() => getTask(client, prefix, id)),
          getDead: (id) => read(() => getDead(client, prefix, id)),
          getResult: (id) => read(() => results.getResult(id)),
        },
        POTATOQ_REDIS_MODEL.states,
        resultExpires,
      ),
    taskNames: () => read(async () => taskNames(client, prefix, await client.smembers(redisKeys(prefix).queues))),
    taskQueues: () => read(async () => taskQueues(client, prefix, await client.smembers(redisKeys(prefix).queues))),
    replayDead: (ids) => perId('replay', ids, () => replayDead(client, prefix, ids)),
    previewReplayEdited: (id, edit) => read(() => previewEditedRedis(client, prefix, config.id, id, edit)),
    replayEdited: async (id, edit) => {
      const { preview, outcome } = await sys.act(() => replayEditedRedis(client, prefix, config.id, id, edit));
      if (outcome.outcome === 'missing') throw new ConsoleError('NotFound', `dead letter ${id}: ${outcome.message}`);
      return { ...preview, outcome: { id, outcome: outcome.outcome, message: outcome.message } };
    },
    discardDead: (ids) => perId('discard', ids, () => discardDead(client, prefix, ids)),
    removeMoved: (ids) => perId('discard', ids, () => discardMoved(client, prefix, ids)),
    revoke: (ids) => perId('revoke', ids, () => revokeTasks(client, prefix, ids, resultExpires)),
    exportCall: (id) => read(() => getDead(client, prefix, id)).then((d) => d && callOfLetter(d)),
    importCall,
    findCall: (id) => read(() => findCall(client, prefix, id, results)),
    peekWaiting: (id) => read(() => peekWaiting(client, prefix, id)),
    takeWaiting: (id, claim) => sys.act(() => takeWaiting(client, prefix, id, claim, resultExpires)),
    tookWaiting: (id) => read(() => tookWaiting(client, prefix, id)),
    purge: async (queue) => ({ brokerId: config.id, queue, removed: (await sys.act(() => purgeQueue(client, prefix, queue))).purged }),
    enqueue,
    previewEnqueue: async (req) => previewPotatoqEnqueue(config.id, req),
    close: async () => {
      tally.close();
      client.disconnect();
    },
  };
}

/** The PEM text of `tlsCaFile`, checked at startup: a TLS URL, a readable file, a certificate in it. */
function readCa(file: string, tls: boolean): string {
  const bad = (why: string) => new ConsoleError('InvalidInput', `broker option tlsCaFile: ${why}`, { tlsCaFile: why });
  if (!tls) throw bad('is only for a TLS url (rediss:// or valkeys://)');
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (e) {
    throw bad(`cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw bad(`${file} holds no PEM certificate`);
  return pem;
}
