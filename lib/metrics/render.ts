import 'server-only';
import { Counter, Gauge, Registry } from 'prom-client';
import { alertsText } from '@/lib/alerts/watch';
import { actionRegistry } from './actions';
import { getMetricsConfig, OTHER_QUEUE } from './config';
import { textWithin } from './late';
import { uncaughtRegistry } from './uncaught';
import { scheduleMetricsText } from './schedules';
import { CACHE_MS, cached, limitQueues, queueSamples, takeSnapshot, type Snapshot } from './snapshot';

// The /metrics text: broker gauges from the cached snapshot (lib/metrics/snapshot.ts), the
// scrape error counter and the action counter (per process).

export const CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

/** What the queue-health targets may take after a snapshot that used up its budget. */
const MIN_PART_MS = 250;

const g = globalThis as unknown as {
  __potatoqScrapeErrors?: { registry: Registry; errors: Counter<'broker' | 'code'> };
  __potatoqSnapshot?: () => Promise<string>;
  /** Per broker, when the failed read last counted started: a stale sample repeats it. */
  __potatoqCountedErrors?: Map<string, number | undefined>;
};

/** Counts each failed read once, however many snapshots report it (a stale sample repeats
 *  its broker's last one); a broker never read yet is not a failed read (the read goes on). */
export function countErrors(s: Snapshot): void {
  const seen = (g.__potatoqCountedErrors ??= new Map());
  for (const b of s.brokers) {
    if (!b.error || b.unread || (seen.has(b.id) && seen.get(b.id) === b.readAt)) continue;
    seen.set(b.id, b.readAt);
    scrapeErrors().errors.inc({ broker: b.id, code: b.error.code });
  }
}

/** The failed-read counter's series (its own registry, per process). */
export const scrapeErrorsText = () => scrapeErrors().registry.metrics();

function scrapeErrors() {
  if (g.__potatoqScrapeErrors) return g.__potatoqScrapeErrors;
  const registry = new Registry();
  const errors = new Counter({
    name: 'potatoq_console_broker_scrape_errors_total',
    help: 'Failed reads of a broker for /metrics (one per read, however many scrapes report it), by error code.',
    labelNames: ['broker', 'code'] as const,
    registers: [registry],
  });
  g.__potatoqScrapeErrors = { registry, errors };
  return g.__potatoqScrapeErrors;
}

/** The broker gauges of one snapshot, in the exposition format; at most `maxQueues` queues per
 *  broker one by one, the rest summed under `queue="(other)"`. */
export async function renderSnapshot(s: Snapshot, maxQueues = getMetricsConfig().maxQueues): Promise<string> {
  const r = new Registry();
  const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    new Gauge<L>({ name, help, labelNames, registers: [r] });
  const info = gauge('potatoq_console_broker_info', 'One series per configured broker: its name, store and system (always 1).', [
    'broker',
    'name',
    'kind',
    'system',
  ]);
  const up = gauge('potatoq_console_broker_up', 'Whether the last finished read of the broker succeeded (1) or failed (0).', ['broker']);
  const stale = gauge(
    'potatoq_console_broker_stale',
    "1 when the broker's newest read did not finish within POTATOQ_CONSOLE_METRICS_BUDGET_MS: its series are from its last finished read (0: read for this snapshot).",
    ['broker'],
  );
  const readAge = gauge(
    'potatoq_console_broker_read_age_seconds',
    "How long before this snapshot the read behind the broker's series started (0 when read for it).",
    ['broker'],
  );
  const seconds = gauge(
    'potatoq_console_broker_scrape_duration_seconds',
    'How long the last read of the broker took (its overview: capped counts, workers).',
    ['broker'],
  );
  const tasks = gauge(
    'potatoq_console_queue_tasks',
    'Tasks per queue in each state the broker declares (ready, scheduled, running, ...) and dead letters (state="dead"). Unknown counts are absent, never 0.',
    ['broker', 'queue', 'state'],
  );
  const capped = gauge(
    'potatoq_console_queue_tasks_capped',
    "A count that stopped at the broker's count cap: potatoq_console_queue_tasks is then a lower bound.",
    ['broker', 'queue', 'state'],
  );
  const oldest = gauge(
    'potatoq_console_queue_oldest_waiting_age_seconds',
    "How long the oldest task of the queue in the broker's waiting state (the one that plays `waiting`) has waited (0 when none waits; absent when unknown).",
    ['broker', 'queue'],
  );
  // The same value under the name it had before the waiting role: kept for one release so
  // dashboards and alert rules can move over (docs/metrics.md); remove it in the next one.
  const oldestAlias = gauge(
    'potatoq_console_queue_oldest_ready_age_seconds',
    'Deprecated: the same as potatoq_console_queue_oldest_waiting_age_seconds, removed in the next release.',
    ['broker', 'queue'],
  );
  const omitted = gauge(
    'potatoq_console_queues_omitted',
    `Queues of the broker past POTATOQ_CONSOLE_METRICS_MAX_QUEUES, summed into the queue="${OTHER_QUEUE}" series (0: every queue has its own).`,
    ['broker'],
  );
  const workers = gauge(
    'potatoq_console_workers',
    'Workers by heartbeat status (alive, stale) as the broker reports them; absent where the system keeps no worker registry.',
    ['broker', 'status'],
  );
  const failedRuns = gauge(
    'potatoq_console_workflows_failed',
    "Workflow runs in a failed status now (QueueFlow: failed and partially_failed), where the broker's adapter declares workflows; absent where it does not or could not count them.",
    ['broker'],
  );
  const snapshotAge = gauge(
    'potatoq_console_metrics_snapshot_timestamp_seconds',
    `When the brokers were read for these numbers (reads are shared for ${CACHE_MS / 1000} s).`,
    [],
  );
  snapshotAge.set(s.takenAt / 1000);
  for (const b of s.brokers) {
    info.set({ broker: b.id, name: b.name, kind: b.kind, system: b.system }, 1);
    up.set({ broker: b.id }, b.ok ? 1 : 0);
    stale.set({ broker: b.id }, b.stale ? 1 : 0);
    readAge.set({ broker: b.id }, b.stale ? Math.max(0, (s.takenAt - (b.readAt ?? s.takenAt)) / 1000) : 0);
    seconds.set({ broker: b.id }, b.seconds);
    const o = b.overview;
    if (!o) continue;
    // Absent where the system keeps no worker registry: a 0 would page "no workers".
    if (o.workers) {
      workers.set({ broker: b.id, status: 'alive' }, o.workers.alive);
      workers.set({ broker: b.id, status: 'stale' }, o.workers.stale);
    }
    // Absent, never 0, where the system has no workflows or did not count them.
    if (o.capabilities.workflows?.on && typeof o.workflows?.failed === 'number') failedRuns.set({ broker: b.id }, o.workflows.failed);
    const { kept, omitted: n } = limitQueues(queueSamples(o, s.takenAt), maxQueues, OTHER_QUEUE);
    omitted.set({ broker: b.id }, n);
    for (const q of kept) {
      for (const c of q.counts) {
        tasks.set({ broker: q.broker, queue: q.queue, state: c.state }, c.value);
        if (c.capped) capped.set({ broker: q.broker, queue: q.queue, state: c.state }, 1);
      }
      if (q.oldestAgeSeconds !== null) {
        oldest.set({ broker: q.broker, queue: q.queue }, q.oldestAgeSeconds);
        oldestAlias.set({ broker: q.broker, queue: q.queue }, q.oldestAgeSeconds);
      }
    }
  }
  return r.metrics();
}

function snapshotText(): Promise<string> {
  g.__potatoqSnapshot ??= cached(async () => {
    const s = await takeSnapshot();
    countErrors(s);
    // The queue-health targets read the same snapshot (lib/alerts); a failure there never fails
    // the scrape, and what they read of brokers waits only for what is left of the budget.
    const left = Math.max(MIN_PART_MS, s.takenAt + getMetricsConfig().budgetMs - Date.now());
    const [brokers, alerts] = await Promise.all([renderSnapshot(s), textWithin('alerts', alertsText(s), left)]);
    return alerts ? `${brokers.trimEnd()}\n${alerts}` : brokers;
  }, CACHE_MS);
  return g.__potatoqSnapshot();
}

/** Everything /metrics answers: a broker that is down is its up/error series, never a failed scrape. */
export async function renderMetrics(): Promise<string> {
  const parts = await Promise.all([
    snapshotText(),
    // A failed read of schedules never fails the scrape: its brokers read 0 in
    // potatoq_console_schedules_read. A slow one answers its last series (lib/metrics/late.ts).
    textWithin('schedules', scheduleMetricsText(), getMetricsConfig().budgetMs),
    scrapeErrorsText(),
    actionRegistry().metrics(),
    uncaughtRegistry().metrics(),
  ]);
  return (
    parts
      .map((p) => p.trimEnd())
      .filter(Boolean)
      .join('\n') + '\n'
  );
}
