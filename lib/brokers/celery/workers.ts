import 'server-only';
import type { WorkerInfo } from '@/lib/brokers/schema';
import type { LiveTask, LiveWorker } from './diagnose';
import { isoMs } from './message';

// Celery workers as Flower finds them: broadcast `inspect` over the pidbox and whoever answers
// within the wait is alive. Celery keeps no heartbeats in the broker (those are events).

export type Inspect = (method: string) => Promise<Map<string, unknown>>;

interface StatsReply {
  pid?: number;
  pool?: { 'max-concurrency'?: number; implementation?: string };
}

/** Live workers by broadcast `inspect stats/active/active_queues/registered`, in parallel.
 *  No reply: no live worker (or none reachable). `only` limits the methods asked. */
export async function workersFrom(inspect: Inspect, only?: string[]): Promise<WorkerInfo[]> {
  const methods = ['stats', 'active', 'active_queues', 'registered'];
  const got = await Promise.all(methods.map((m) => (!only || only.includes(m) ? inspect(m) : Promise.resolve(new Map<string, unknown>()))));
  const [stats, active, queues, registered] = got;
  const hosts = new Set([...stats!.keys(), ...active!.keys(), ...queues!.keys(), ...registered!.keys()]);
  const now = new Date().toISOString();
  return [...hosts].sort().map((host) => {
    const s = (stats!.get(host) ?? {}) as StatsReply;
    const a = active!.get(host);
    const qs = queues!.get(host);
    const reg = registered!.get(host);
    return {
      id: host,
      hostname: host,
      pid: s.pid === undefined ? null : String(s.pid),
      queues: Array.isArray(qs) ? qs.flatMap((x: { name?: unknown }) => (typeof x?.name === 'string' ? [x.name] : [])) : [],
      concurrency: s.pool?.['max-concurrency'] === undefined ? null : String(s.pool['max-concurrency']),
      threads: null,
      running: Array.isArray(a) ? a.flatMap((x: { id?: unknown }) => (typeof x?.id === 'string' ? [x.id] : [])) : [],
      heartbeatAt: now,
      ageSeconds: 0,
      status: 'alive' as const,
      registered: Array.isArray(reg) ? reg.filter((x): x is string => typeof x === 'string').map((x) => x.split(' ')[0]!) : null,
    };
  });
}

type Info = { id?: unknown; name?: unknown; time_start?: unknown; delivery_info?: { routing_key?: unknown } };

function liveTask(x: Info, etaMs: number | null): LiveTask | null {
  if (typeof x?.id !== 'string') return null;
  const rk = x.delivery_info?.routing_key;
  return {
    id: x.id,
    task: typeof x.name === 'string' ? x.name : '(unknown)',
    queue: typeof rk === 'string' && rk ? rk : null,
    startedAt: typeof x.time_start === 'number' ? x.time_start : null,
    etaMs,
  };
}

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** What each live worker holds, for stuck-work checks: `inspect active / reserved / scheduled /
 *  active_queues / stats` in parallel, each a bounded wait. */
export async function liveWorkers(inspect: Inspect): Promise<LiveWorker[]> {
  const [active, reserved, scheduled, queues, stats] = await Promise.all(
    ['active', 'reserved', 'scheduled', 'active_queues', 'stats'].map((m) => inspect(m)),
  );
  const hosts = new Set([active!, reserved!, scheduled!, queues!, stats!].flatMap((m) => [...m.keys()]));
  return [...hosts].sort().map((host) => {
    const s = stats!.get(host) as { pool?: { timeouts?: unknown } } | undefined;
    const timeouts = s?.pool?.timeouts;
    const hard = Array.isArray(timeouts) && typeof timeouts[1] === 'number' && timeouts[1] > 0 ? timeouts[1] : null;
    const sched = list(scheduled!.get(host)).flatMap((x) => {
      const e = x as { eta?: unknown; request?: Info };
      const t = e.request ? liveTask(e.request, typeof e.eta === 'string' ? isoMs(e.eta) : null) : null;
      return t ? [t] : [];
    });
    return {
      host,
      queues: list(queues!.get(host)).flatMap((x) => {
        const n = (x as { name?: unknown })?.name;
        return typeof n === 'string' ? [n] : [];
      }),
      active: list(active!.get(host)).flatMap((x) => liveTask(x as Info, null) ?? []),
      waiting: [
        ...new Map([...list(reserved!.get(host)).flatMap((x) => liveTask(x as Info, null) ?? []), ...sched].map((t) => [t.id, t])).values(),
      ],
      hardLimit: hard,
    };
  });
}
