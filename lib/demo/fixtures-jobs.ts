import { float, tagged, type Py } from './py-json';
import { buildDemoMessage, type DemoMessage, type WireMessage } from './wire';

// Waiting and running work for the demo broker, relative to `now` (Unix seconds).

export const DEMO_WORKER_ALIVE = 'potatoq@demo-host:4242:a1b2c3';
export const DEMO_WORKER_STALE = 'potatoq@old-host:977:solo';

export interface JobRow extends WireMessage {
  state: 0 | 1 | 2;
  runAt: number;
  createdAt: number;
  deliveries: number;
  worker: string | null;
  pid: number | null;
  token: bigint | null;
  claimedAt: number | null;
}

/** Every tagged type potatoq writes, plus NaN/Infinity and integers beyond 2^53. */
export const EVERY_TAGGED_TYPE: Py[] = [
  tagged('datetime', '2026-11-30T09:15:00.250000+00:00'),
  tagged('datetime', '2026-11-30T09:15:00'),
  tagged('date', '2026-12-01'),
  tagged('time', '14:30:00'),
  tagged('timedelta', float(5400)),
  tagged('uuid', '6f1c2a4e-8b3d-4f7a-9c2e-1d5b7a9e3f10'),
  tagged('decimal', '19.99'),
  tagged('bytes', 'aGVsbG8gcG90YXRvcQ=='),
  tagged('set', [1, 2, 3]),
  { customer: { tags: ['vip', 'beta'], limits: { daily: tagged('decimal', '250.00') } } },
  1208925819614629174706176n,
  -18446744073709551616n,
  float(NaN),
  float(Infinity),
  float(-Infinity),
];

function nested(depth: number): Py {
  let v: Py = [];
  for (let i = 1; i < depth; i++) v = [v];
  return v;
}

interface Spec extends Omit<DemoMessage, 'enqueuedAt'> {
  age: number;
  state?: 0 | 1 | 2;
  running?: { worker: string; pid: number; token: bigint; claimedAgo: number; deliveries: number };
}

export function demoJobs(now: number): JobRow[] {
  const specs: Spec[] = [
    { task: 'demo.add', args: [2, 3], age: 95 },
    { task: 'demo.add', args: [1208925819614629174706176n, -9007199254740993n], age: 80 },
    {
      task: 'demo.echo',
      args: EVERY_TAGGED_TYPE,
      kwargs: { note: 'every tagged type', when: tagged('datetime', '2026-11-30T08:00:00+01:00') },
      age: 70,
    },
    {
      task: 'demo.echo',
      args: ['<script>alert(1)</script>', 'javascript:alert(1)'],
      kwargs: { url: 'javascript:alert(1)', html: '<img src=x onerror=alert(1)>' },
      age: 60,
    },
    { task: 'demo.echo', args: ['x'.repeat(1_000_000)], kwargs: { note: 'a 1 MB string' }, age: 55 },
    { task: 'demo.send_email', queue: 'emails', args: ['ada@example.com', 'Welcome!'], kwargs: { template: 'welcome' }, age: 50 },
    {
      task: 'demo.send_email',
      queue: 'emails',
      priority: 5,
      args: ['grace@example.com', 'Password reset'],
      kwargs: { template: 'reset' },
      age: 45,
    },
    {
      task: 'demo.send_email',
      queue: 'emails',
      args: ['ops@example.com', 'Weekly digest'],
      kwargs: { template: 'digest', week: tagged('date', '2026-11-23') },
      age: 30,
    },
    {
      task: 'demo.build_report',
      queue: 'reports',
      args: [tagged('date', '2026-11-01'), tagged('date', '2026-11-30')],
      kwargs: { format: 'pdf', timezone: 'Europe/Ljubljana' },
      options: { time_limit: float(300) },
      age: 40,
    },
    {
      task: 'demo.charge_card',
      queue: 'billing',
      args: [tagged('uuid', '0b7e9c1a-3d4f-4e8a-b2c6-5f1a9d3e7b20'), tagged('decimal', '49.90')],
      kwargs: { currency: 'EUR' },
      retries: 1,
      age: 20,
    },
    // Scheduled: eta in the future, run_at = eta.
    { task: 'demo.send_email', queue: 'emails', args: ['ada@example.com', 'How is it going?'], eta: now + 15 * 60, age: 300, state: 0 },
    { task: 'demo.build_report', queue: 'reports', args: [tagged('date', '2026-12-01')], eta: now + 2 * 3600, age: 600, state: 0 },
    { task: 'demo.charge_card', queue: 'billing', args: ['sub_42'], eta: now + 86400, expires: now + 2 * 86400, age: 900, state: 0 },
    // Running, claimed by the live worker: the console must not touch these.
    {
      task: 'demo.build_report',
      queue: 'reports',
      args: [tagged('date', '2026-10-01'), tagged('date', '2026-10-31')],
      age: 120,
      state: 2,
      running: { worker: DEMO_WORKER_ALIVE, pid: 4243, token: 3141592653589793238n, claimedAgo: 40, deliveries: 1 },
    },
    {
      task: 'demo.charge_card',
      queue: 'billing',
      args: ['cus_8731', tagged('decimal', '12.00')],
      age: 30,
      state: 2,
      running: { worker: DEMO_WORKER_ALIVE, pid: 4244, token: 2718281828459045235n, claimedAgo: 5, deliveries: 2 },
    },
    // Poison: potatoq 26.1a8's claim raises on these, killing the worker that takes them.
    { task: 'demo.echo', queue: 'poison', args: [nested(1000)], kwargs: { note: '1,000 nested lists' }, age: 15 },
  ];
  return specs.map((s) => {
    const enqueuedAt = now - s.age;
    const message = buildDemoMessage({ ...s, enqueuedAt });
    const state = s.state ?? 1;
    return {
      ...message,
      state,
      runAt: state === 0 ? (s.eta as number) : enqueuedAt,
      createdAt: enqueuedAt,
      deliveries: s.running?.deliveries ?? 0,
      worker: s.running?.worker ?? null,
      pid: s.running?.pid ?? null,
      token: s.running?.token ?? null,
      claimedAt: s.running ? now - s.running.claimedAgo : null,
    };
  });
}

/** A Celery protocol-2 body (kombu's `json.dumps` spacing) as a foreign producer leaves it. */
export function celeryJob(now: number): JobRow {
  const payload = '[[4, 4], {}, {"callbacks": null, "errbacks": null, "chain": null, "chord": null}]';
  return {
    id: 'c3a1e7d2-5b4f-4c8e-9a6d-2f1b3e5c7a90',
    queue: 'poison',
    task: 'proj.tasks.add',
    priority: 0,
    eta: null,
    payload,
    state: 1,
    runAt: now - 10,
    createdAt: now - 10,
    deliveries: 0,
    worker: null,
    pid: null,
    token: null,
    claimedAt: null,
  };
}
