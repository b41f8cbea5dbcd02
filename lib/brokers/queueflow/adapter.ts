import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import { parseOptions } from '@/lib/brokers/options';
import { ZDeadListQuery, type BrokerOverview, type WriteAction } from '@/lib/brokers/schema';
import type { AdapterContext } from '@/lib/brokers/adapter-context';
import type { BrokerAdapter, StoreConfig } from '@/lib/brokers/types';
import { requireOn, unsupported } from '@/lib/brokers/kit/capabilities';
import { cachedFor } from '@/lib/brokers/kit/connections';
import { totalsOver } from '@/lib/brokers/kit/overview';
import { createQfClient, type QfClient } from './client';
import { deadGroups, getDead, lacksHandler, listDead } from './dead';
import { foldSightings } from '@/lib/brokers/task-queues';
import { createJob, previewCreate } from './enqueue';
import { queueflowFates } from './fate';
import { importValueQf } from './import-value';
import { exportValueQf, removeMovedQf } from './move-out';
import { peekPendingQf, takePendingQf, tookPendingQf } from './pending-out';
import { getResult, getTask, jobPager, listTasks } from './jobs';
import { listResults } from './results';
import { deadHistogramQf } from './histogram';
import { QF_STATES, QUEUEFLOW_MODEL } from './model';
import { ZQueueflowOptions } from './options';
import { probe, publicStats, queueStats, WORKERS_WHY, type QfProbe } from './overview';
import { previewEditedQf, replayEditedQf } from './edit-replay';
import { createHolds, holdText, holdWarnings } from './holds';
import { cancelJobs, cancelQueue, replayDead, setPaused } from './writes';
import { createReplayLinks } from './replayed';
import { collectRows } from './pages';
import { cursorAfter } from './wire';
import { diagnoseQueueflow } from './diagnose';
import { listQfSchedules, readCron, scheduleOf } from './schedules';
import { previewCron } from './schedules-input';
import { qfCreateSchedule, qfEditSchedule, qfScheduleAction } from './schedules-write';
import { failedRunWarning, qfWorkflows } from './workflows';

/** How long a `/whoami` answer is trusted (a key's access changes only with the server's config). */
const PROBE_TTL_MS = 30_000;
/** Task names come from the newest jobs and letters (QueueFlow's `/tasks` lists only its builtins). */
const NAMES_WINDOW = 500;

/**
 * QueueFlow (server 0.6.0) through its REST API only, as one tenant: the token's. Replay, cancel
 * and create are QueueFlow's own endpoints, so its guarantees hold (a letter replays once, a
 * cancel is one guarded UPDATE, an Idempotency-Key returns the earlier job). Options: `token`
 * (required), `timeoutMs` (8000 per call). docs/systems/queueflow.md has the API as observed.
 * `ctx`: the console's pause leases (edit-replay holds its queue) and audit trail (recoveries).
 */
export function createQueueflowAdapter(config: StoreConfig, ctx: AdapterContext): BrokerAdapter {
  const o = parseOptions(ZQueueflowOptions, config.options);
  const client: QfClient = createQfClient({ url: config.url, token: o.token, timeoutMs: o.timeoutMs ?? 8000 });
  const { leases } = ctx;
  const links = createReplayLinks(client);
  const workflows = qfWorkflows(client);
  // Recovery writes (a resume, a cancel): never from a read-only console or token.
  const holds = createHolds(client, config.id, ctx, async () => !config.readOnly && (await who()).capabilities.pause.on);

  const probed = cachedFor(PROBE_TTL_MS, () => probe(client));
  const who = (): Promise<QfProbe> => probed.get();
  async function writable(action: WriteAction): Promise<void> {
    requireOn(
      (await who()).capabilities,
      action,
      (cap) => new ConsoleError(cap.code ?? 'Unsupported', cap.why ?? `QueueFlow cannot ${action} here`),
    );
  }

  async function writableSchedules(): Promise<void> {
    const cap = (await who()).capabilities['schedules:write'];
    if (cap && !cap.on) throw new ConsoleError(cap.code ?? 'Unsupported', cap.why ?? 'QueueFlow cannot change schedules here');
  }

  async function overview(): Promise<BrokerOverview> {
    // Before the counts, so a queue a recovery resumes reads as resumed.
    const held = await holds.read();
    const [p, queues, flows] = await Promise.all([who(), queueStats(client), workflowHealth()]);
    const warnings = [...holdWarnings(held, leases.now()), ...failedRunWarning(flows)];
    return {
      id: config.id,
      name: config.name,
      kind: 'queueflow',
      serverInfo: [
        `QueueFlow ${p.version ?? '(version unknown)'}`,
        p.tenant ? `tenant ${p.tenant}` : null,
        p.readOnly ? 'read-only token' : null,
      ]
        .filter(Boolean)
        .join(' · '),
      readOnly: p.readOnly,
      capabilities: p.capabilities,
      queues: publicStats(queues),
      totals: totalsOver(queues, QF_STATES),
      workers: null,
      unknownWhy: { workers: p.capabilities.workers.why ?? '' },
      workflows: flows,
      ...(warnings.length ? { warnings } : {}),
      readAt: new Date().toISOString(),
    };
  }

  /** Failed runs for the overview and /metrics; a failing read is "not counted", never 0 and
   *  never a failed overview. */
  const workflowHealth = () => workflows.health().catch(() => ({ failed: null, recent: [] }));

  async function diagnose(q: Parameters<NonNullable<BrokerAdapter['diagnose']>>[0]) {
    const held = await holds.read();
    const now = leases.now();
    const texts = new Map(held.flatMap((l) => (holdText(l, now) ? [[l.queue, holdText(l, now)!] as const] : [])));
    return diagnoseQueueflow(client, config.id, await queueStats(client), q, texts);
  }

  /** Task names with their queues from the newest jobs of each status and the newest letters. */
  async function sightings(): Promise<Array<{ task: string | null; queue: string | null }>> {
    const rows: Array<{ task: string | null; queue: string | null }> = [];
    const jobs = await Promise.all(
      ['pending', 'retrying', 'running', 'completed', 'failed'].map((status) =>
        collectRows(jobPager(client, { status }), (j) => cursorAfter(j.created_at, j.id), NAMES_WINDOW / 5, undefined),
      ),
    );
    for (const page of jobs) for (const j of page.rows) rows.push({ task: j.task_name, queue: j.queue_name });
    const letters = await listDead(client, ZDeadListQuery.parse({ limit: 100 }));
    for (const d of letters.items) rows.push({ task: d.task, queue: d.queue });
    return rows;
  }

  async function taskNames(): Promise<string[]> {
    return [...new Set((await sightings()).flatMap((r) => (r.task ? [r.task] : [])))].sort();
  }

  return {
    id: config.id,
    name: config.name,
    kind: 'queueflow',
    model: QUEUEFLOW_MODEL,
    capabilities: async () => (await who()).capabilities,
    overview,
    listTasks: (q) => listTasks(client, q),
    getTask: (id) => getTask(client, id),
    listDead: (q) => listDead(client, q, links),
    deadGroups: (q) => deadGroups(client, q),
    deadHistogram: (q) => deadHistogramQf(client, q),
    getDead: (id) => getDead(client, id, links),
    lacksHandler,
    listWorkers: unsupported(WORKERS_WHY),
    listResults: (q) => listResults(client, q),
    getResult: (id) => getResult(client, id),
    fate: (ids) => queueflowFates(ids, client, links, QUEUEFLOW_MODEL.states),
    taskNames,
    taskQueues: async () => foldSightings(await sightings()),
    replayDead: async (ids) => (await writable('replay'), replayDead(client, config.id, ids, links)),
    previewReplayEdited: (id, edit) => previewEditedQf(client, config.id, id, edit),
    replayEdited: async (id, edit) => (await writable('replay'), await writable('pause'), replayEditedQf(client, config.id, id, edit, ctx)),
    discardDead: unsupported(QUEUEFLOW_MODEL.actions.discard.does),
    revoke: async (ids) => (await writable('revoke'), cancelJobs(client, config.id, ids)),
    purge: async (queue) => (await writable('purge'), { brokerId: config.id, queue, removed: await cancelQueue(client, queue) }),
    enqueue: async (req) => (await writable('enqueue'), createJob(client, config.id, req)),
    previewEnqueue: async (req) => previewCreate(config.id, req),
    importValue: async (job) => (await writable('enqueue'), importValueQf(client, job)),
    exportValue: (id) => exportValueQf(client, id),
    removeMoved: async (ids, to) => (await writable('replay'), await writable('pause'), removeMovedQf(client, config.id, ids, ctx, to)),
    // Pending jobs moved back through a call mapping (./pending-out.ts).
    peekWaitingValue: (id) => peekPendingQf(client, id),
    takeWaiting: async (id, claim) => (await writable('revoke'), await writable('pause'), takePendingQf(client, config.id, id, claim, ctx)),
    tookWaiting: (id) => tookPendingQf(client, id),
    diagnose,
    setQueuePaused: async (queue, paused) => (
      await writable('pause'),
      await holds.guard(queue),
      setPaused(client, config.id, queue, paused)
    ),
    // Cron schedules (./schedules*.ts): writes refused for a read-only token.
    listSchedules: () => listQfSchedules(client),
    getSchedule: async (id) => {
      const c = await readCron(client, id);
      return c ? scheduleOf(c, null, false) : null;
    },
    scheduleAction: async (id, action, key) => (await writableSchedules(), qfScheduleAction(client, id, action, key)),
    previewSchedule: async (input, replaces) => {
      const old = replaces ? await readCron(client, replaces) : null;
      if (replaces && !old)
        throw new ConsoleError('NotFound', `QueueFlow has no cron schedule "${replaces.slice(0, 100)}" for this tenant`);
      return previewCron(input, old ? { id: old.id, name: old.name } : undefined);
    },
    createSchedule: async (input) => (await writableSchedules(), qfCreateSchedule(client, input)),
    editSchedule: async (id, input) => (await writableSchedules(), qfEditSchedule(client, id, input)),
    workflows: {
      ...workflows,
      retry: async (id) => (await writable('retryWorkflow'), workflows.retry(id)),
    },
    close: async () => undefined,
  };
}
