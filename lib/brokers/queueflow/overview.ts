import 'server-only';
import { listing, type CappedCount, type Capabilities, type QueueStats } from '@/lib/brokers/schema';
import { QUEUEFLOW_MODEL } from './model';
import type { QfClient } from './client';
import { mapLimit, SERVER_PAGE } from './pages';
import { parseWire, ZDeadPage, ZHealth, ZJobPage, ZQueues, ZWhoAmI } from './wire';

export interface QfProbe {
  tenant: string | null;
  readOnly: boolean;
  version: string | null;
  capabilities: Capabilities;
}

const DISCARD_WHY = 'QueueFlow has no endpoint to delete a dead letter: they leave only by its retention (--retention-hours)';
/** QueueFlow links jobs through its workflows (static DAGs with their own runs and steps), not
 *  through parent ids on each job: the Workflows view shows them. */
export const FAMILY_WHY =
  "QueueFlow's jobs carry no parent or group ids: the jobs of one workflow are linked by its run, shown in the Workflows view, not as a task family";
export const WORKERS_WHY = "QueueFlow's API has no worker registry: its remote workers are anonymous lease holders";

/** Who the token is (`/whoami`) and the server's version (`/health`): what the console may do. */
export async function probe(client: QfClient): Promise<QfProbe> {
  const [who, health] = await Promise.all([client.get('/api/v1/whoami'), client.get('/health').catch(() => null)]);
  const w = parseWire(ZWhoAmI, who, 'whoami');
  const version = health ? (ZHealth.safeParse(health).data?.version ?? null) : null;
  const readOnly = w.access !== 'read_write';
  const write = readOnly
    ? { on: false, why: `the configured token is read-only in QueueFlow (access ${w.access})`, code: 'Forbidden' as const }
    : { on: true };
  return {
    tenant: w.tenant ?? null,
    readOnly,
    version,
    capabilities: {
      ...listing(QUEUEFLOW_MODEL.states, { on: true }),
      browseDead: { on: true },
      deadRange: { on: true },
      taskRange: { on: true },
      replay: write,
      discard: { on: false, why: DISCARD_WHY },
      revoke: write,
      purge: write,
      enqueue: write,
      results: { on: true },
      resultRange: { on: false, why: RESULT_RANGE_WHY },
      workers: { on: false, why: WORKERS_WHY },
      pause: write,
      schedules: { on: true },
      'schedules:write': write,
      workflows: { on: true },
      retryWorkflow: write,
      family: { on: false, why: FAMILY_WHY },
      fate: { on: true },
    },
  };
}

/** Why QueueFlow's results list has no time range. */
const RESULT_RANGE_WHY = "QueueFlow's job list filters by when a job was created, not when it finished";

/** An exact count through a list's `include_total` (one COUNT on the server). */
async function total(client: QfClient, route: string, query: Record<string, string | boolean>, what: string): Promise<number | null> {
  const raw = await client.get(route, { ...query, limit: 1, include_total: true });
  const page = route.endsWith('/dlq') ? parseWire(ZDeadPage, raw, what) : parseWire(ZJobPage, raw, what);
  return page.total ?? null;
}

/** Retrying jobs tallied per queue from their list, when there are few enough to page through. */
const RETRY_TALLY_MAX = 1000;

/** A queue's retrying jobs: all of them, and those whose retry time is past (the server counts
 *  these as claimable `pending`, the others as `scheduled`). */
interface RetryTally {
  all: number;
  due: number;
}

/**
 * The retrying jobs (the tenant's, or one queue's) per queue, due or not: from the list itself
 * while there are at most `max` of them (usually none: one counted call), else how many there
 * are (null when the server does not say).
 */
async function retryingByQueue(
  client: QfClient,
  max: number,
  queue?: string,
): Promise<{ tally: Map<string, RetryTally> } | { total: number | null }> {
  const first = parseWire(
    ZJobPage,
    await client.get('/api/v1/jobs', { status: 'retrying', queue, limit: SERVER_PAGE, include_total: true }),
    'the retrying jobs',
  );
  const n = first.total ?? null;
  if (n === null || n > max) return { total: n };
  const tally = new Map<string, RetryTally>();
  const now = Date.now();
  let page = first;
  for (;;) {
    for (const j of page.jobs) {
      const t = tally.get(j.queue_name) ?? { all: 0, due: 0 };
      t.all += 1;
      // No retry time, or one past: claimable now, as the server's `pending` counts it.
      if (!j.scheduled_at || Date.parse(j.scheduled_at) <= now) t.due += 1;
      tally.set(j.queue_name, t);
    }
    if (!page.has_more || !page.next_cursor) return { tally };
    page = parseWire(
      ZJobPage,
      await client.get('/api/v1/jobs', { status: 'retrying', queue, limit: SERVER_PAGE, cursor: page.next_cursor }),
      'the retrying jobs',
    );
  }
}

/** Letters not replayed, tallied per queue from their list while there are at most `max` in
 *  all (one call per 100; usually a few), else null: then each queue's are counted by a call of
 *  their own, which at thousands of queues is thousands of requests. A letter without a queue
 *  name is in no queue's count, as the server's per-queue count has it. */
async function deadByQueue(client: QfClient, max: number): Promise<Map<string, number> | null> {
  const query = { replayed: false, limit: SERVER_PAGE };
  let page = parseWire(ZDeadPage, await client.get('/api/v1/dlq', { ...query, include_total: true }), 'the dead letters');
  if (page.total === undefined || page.total === null || page.total > max) return null;
  const tally = new Map<string, number>();
  for (;;) {
    for (const d of page.dead_letters) if (d.queue_name) tally.set(d.queue_name, (tally.get(d.queue_name) ?? 0) + 1);
    if (!page.has_more || !page.next_cursor) return tally;
    page = parseWire(ZDeadPage, await client.get('/api/v1/dlq', { ...query, cursor: page.next_cursor }), 'the dead letters');
  }
}

/** Why the pending/scheduled split of a queue is a lower bound (past RETRY_TALLY_MAX). */
const SPLIT_WHY = `more than ${RETRY_TALLY_MAX.toLocaleString('en-US')} retrying jobs in this queue: the console does not read each one's retry time, so how many pending jobs are due now or later is a lower bound`;

/** A queue's stats, and what the server counts as claimable now (pending and due retrying
 *  jobs: what a worker leases next), which the stuck-work checks read. */
export type QfQueueStats = QueueStats & { claimable: number };

/** The stats as the contract has them (without `claimable`). */
export const publicStats = (qs: QfQueueStats[]): QueueStats[] => qs.map(({ claimable: _, ...q }) => q);

/**
 * Every queue the tenant ever used (QueueFlow's queue registry), counted per declared state
 * (./model.ts): `pending` = pending jobs due now, `scheduled` = pending jobs with a future
 * `scheduled_at`, `retrying`, `running`, plus the letters not yet replayed (one list of them
 * all while they are few, else one counted list call per queue, a few at a time). The server's
 * `/queues` counts claimable now (`pending`: pending and due retrying jobs), not due yet
 * (`scheduled`: future pending and retrying jobs) and `running`; with the retrying jobs tallied per queue by their retry time, the pending ones
 * due now and later are the differences. Past `retryTallyMax` retrying jobs in all, each
 * queue's own are tallied (one more call per queue); only a queue with more than
 * RETRY_TALLY_MAX has its pending jobs counted instead, the split then a lower bound.
 */
export async function queueStats(
  client: QfClient,
  retryTallyMax = RETRY_TALLY_MAX,
  deadTallyMax = RETRY_TALLY_MAX,
): Promise<QfQueueStats[]> {
  const [list, retrying, deadTally] = await Promise.all([
    client.get('/api/v1/queues'),
    retryingByQueue(client, retryTallyMax),
    deadByQueue(client, deadTallyMax),
  ]);
  const { queues } = parseWire(ZQueues, list, 'the queue list');
  const now = Date.now();
  const tenant = 'tally' in retrying ? retrying.tally : null;
  return mapLimit(queues, 6, async (q) => {
    const [own, dead] = await Promise.all([
      tenant ? Promise.resolve(null) : retryingByQueue(client, RETRY_TALLY_MAX, q.queue),
      deadTally ? (deadTally.get(q.queue) ?? 0) : total(client, '/api/v1/dlq', { queue: q.queue, replayed: false }, 'a dead-letter count'),
    ]);
    const age = q.oldest_pending_age_secs;
    const base = {
      name: q.queue,
      dead,
      claimable: q.pending,
      oldestWaitingAt: age === undefined ? null : new Date(now - age * 1000).toISOString(),
      tasks: null,
      ...(q.paused !== undefined ? { paused: q.paused } : {}),
    };
    const tally = tenant ?? (own && 'tally' in own ? own.tally : null);
    if (tally) {
      const r = tally.get(q.queue) ?? { all: 0, due: 0 };
      const pending = Math.max(0, q.pending - r.due);
      const scheduled = Math.max(0, q.scheduled - (r.all - r.due));
      return { ...base, counts: { pending, scheduled, retrying: r.all, running: q.running } };
    }
    // Each retrying job may be due or not: each side of the split is at least what is left
    // with all of them on its side, and the pending jobs the other side cannot hold.
    const retryingN = own && 'total' in own ? own.total : null;
    const all = await total(client, '/api/v1/jobs', { queue: q.queue, status: 'pending' }, 'a job count');
    if (all === null || retryingN === null)
      return { ...base, counts: { pending: null, scheduled: null, retrying: retryingN, running: q.running } };
    const pending = Math.max(0, q.pending - retryingN, all - q.scheduled);
    const scheduled = Math.max(0, q.scheduled - retryingN, all - q.pending);
    const exact = pending + scheduled === all;
    const bound = (n: number): CappedCount => ({ atLeast: n, estimate: null, why: SPLIT_WHY });
    return {
      ...base,
      counts: { pending, scheduled, retrying: retryingN, running: q.running },
      ...(exact ? {} : { capped: { pending: bound(pending), scheduled: bound(scheduled) } }),
    };
  });
}
