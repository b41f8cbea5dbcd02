import 'server-only';
import type { WorkerInfo } from '@/lib/brokers/schema';

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
