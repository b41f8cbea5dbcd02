import 'server-only';
import type { Capabilities, QueueStats } from '@/lib/brokers/schema';
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
      listReady: { on: true },
      listScheduled: { on: true },
      listRunning: { on: true },
      browseDead: { on: true },
      replay: write,
      discard: { on: false, why: DISCARD_WHY },
      revoke: write,
      purge: write,
      enqueue: write,
      results: { on: true },
      workers: { on: false, why: WORKERS_WHY },
      pause: write,
    },
  };
}

/** An exact count through a list's `include_total` (one COUNT on the server). */
async function total(client: QfClient, route: string, query: Record<string, string | boolean>, what: string): Promise<number | null> {
  const raw = await client.get(route, { ...query, limit: 1, include_total: true });
  const page = route.endsWith('/dlq') ? parseWire(ZDeadPage, raw, what) : parseWire(ZJobPage, raw, what);
  return page.total ?? null;
}

/** Retrying jobs tallied per queue from their list, when there are few enough to page through. */
const RETRY_TALLY_MAX = 1000;

/**
 * The tenant's retrying jobs per queue: from the list itself while there are at most
 * RETRY_TALLY_MAX of them (usually none: one counted call), else null (count per queue).
 */
async function retryingByQueue(client: QfClient, max: number): Promise<Map<string, number> | null> {
  const first = parseWire(
    ZJobPage,
    await client.get('/api/v1/jobs', { status: 'retrying', limit: SERVER_PAGE, include_total: true }),
    'the retrying jobs',
  );
  const n = first.total ?? null;
  if (n === null || n > max) return null;
  const tally = new Map<string, number>();
  let page = first;
  for (;;) {
    for (const j of page.jobs) tally.set(j.queue_name, (tally.get(j.queue_name) ?? 0) + 1);
    if (!page.has_more || !page.next_cursor) return tally;
    page = parseWire(
      ZJobPage,
      await client.get('/api/v1/jobs', { status: 'retrying', limit: SERVER_PAGE, cursor: page.next_cursor }),
      'the retrying jobs',
    );
  }
}

/**
 * Every queue the tenant ever used (QueueFlow's queue registry), with the server's own counts
 * (`pending` = claimable now: pending and due retrying jobs; `scheduled` = not due yet;
 * `running`) and exact per-status counts for the declared states, plus the letters not yet
 * replayed (one counted list call per queue, a few at a time). The server's `pending +
 * scheduled` is exactly its pending and retrying jobs (one `COUNT … FILTER` over both), so
 * with the retrying jobs tallied per queue the pending ones are the difference; only past
 * RETRY_TALLY_MAX retrying jobs are both counted per queue instead.
 */
export async function queueStats(client: QfClient, retryTallyMax = RETRY_TALLY_MAX): Promise<QueueStats[]> {
  const [list, retrying] = await Promise.all([client.get('/api/v1/queues'), retryingByQueue(client, retryTallyMax)]);
  const { queues } = parseWire(ZQueues, list, 'the queue list');
  const now = Date.now();
  return mapLimit(queues, 6, async (q) => {
    const [counted, dead] = await Promise.all([
      retrying
        ? Promise.resolve(null)
        : Promise.all([
            total(client, '/api/v1/jobs', { queue: q.queue, status: 'pending' }, 'a job count'),
            total(client, '/api/v1/jobs', { queue: q.queue, status: 'retrying' }, 'a job count'),
          ]),
      total(client, '/api/v1/dlq', { queue: q.queue, replayed: false }, 'a dead-letter count'),
    ]);
    const r = retrying?.get(q.queue) ?? 0;
    const [pending, retryingN] = counted ?? [Math.max(0, q.pending + q.scheduled - r), r];
    const age = q.oldest_pending_age_secs;
    return {
      name: q.queue,
      ready: q.pending,
      scheduled: q.scheduled,
      running: q.running,
      dead,
      counts: { pending, retrying: retryingN },
      oldestReadyAt: age === undefined ? null : new Date(now - age * 1000).toISOString(),
      tasks: null,
      ...(q.paused !== undefined ? { paused: q.paused } : {}),
    };
  });
}

export function totalsOf(queues: QueueStats[]) {
  const sum = (get: (q: QueueStats) => number | null | undefined): number | null =>
    queues.reduce<number | null>((acc, q) => {
      const v = get(q);
      return acc === null || v === null || v === undefined ? null : acc + v;
    }, 0);
  return {
    ready: sum((q) => q.ready),
    scheduled: sum((q) => q.scheduled),
    running: sum((q) => q.running),
    dead: sum((q) => q.dead),
    counts: { pending: sum((q) => q.counts?.pending), retrying: sum((q) => q.counts?.retrying) },
  };
}
