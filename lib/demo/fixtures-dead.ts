import { createHash, randomUUID } from 'node:crypto';
import { pyDumps, tagged, type Py } from './py-json';
import { buildDemoMessage, buildResultPayload, type WireMessage } from './wire';
import { DEMO_WORKER_ALIVE, DEMO_WORKER_STALE } from './fixtures-jobs';

// Dead letters, results and heartbeats for the demo broker. Reason texts are the ones
// potatoq 26.1a8 writes (contract section 4, checked against the installed source).

export const DEMO_TASK_NAMES = ['demo.add', 'demo.build_report', 'demo.charge_card', 'demo.echo', 'demo.send_email'];
const HOST = 'potatoq@demo-host';
const SITE = '/srv/shop/.venv/lib/python3.11/site-packages/potatoq';

/** Python's traceback as potatoq's executor stores it (its frames, then the task's). */
function traceback(taskFrame: string[], last: string): string {
  return [
    'Traceback (most recent call last):',
    `  File "${SITE}/worker/executor.py", line 368, in _execute`,
    '    retval = task(*message.args, **message.kwargs)',
    '             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^',
    `  File "${SITE}/task.py", line 202, in __call__`,
    '    result = self.run(*args, **kwargs)',
    '             ^^^^^^^^^^^^^^^^^^^^^^^^^',
    ...taskFrame,
    last,
    '',
  ].join('\n');
}

export interface DeadRow extends WireMessage {
  reason: string;
  diedAt: number;
}

export interface ResultRow {
  id: string;
  state: string;
  payload: string;
  expiresAt: number | null;
}

export interface WorkerRow {
  id: string;
  heartbeat: number;
  info: string;
}

export function registeredDigest(names: string[]): string {
  return createHash('sha256')
    .update([...names].sort().join('\n'))
    .digest('hex')
    .slice(0, 16);
}

export function demoDead(now: number): { dead: DeadRow[]; results: ResultRow[] } {
  const dead: DeadRow[] = [];
  const results: ResultRow[] = [];
  const letter = (
    task: string,
    queue: string,
    args: Py[],
    kwargs: Record<string, Py>,
    diedAgo: number,
    reason: (id: string) => string,
    failure?: (id: string) => { exc: Py; tb: string },
  ) => {
    const message = buildDemoMessage({ task, queue, args, kwargs, enqueuedAt: now - diedAgo - 30 });
    dead.push({ ...message, reason: reason(message.id), diedAt: now - diedAgo });
    if (failure) {
      const f = failure(message.id);
      const payload = buildResultPayload({
        id: message.id,
        status: 'FAILURE',
        result: f.exc,
        traceback: f.tb,
        dateDone: now - diedAgo,
        name: task,
        args,
        kwargs,
        worker: HOST,
        dateStarted: now - diedAgo - 1,
        enqueuedAt: now - diedAgo - 30,
      });
      results.push({ id: message.id, state: 'FAILURE', payload, expiresAt: now - diedAgo + 86400 });
    }
  };

  const declined = traceback(
    [`  File "/srv/shop/demo/tasks.py", line 87, in charge_card`, `    raise ValueError("card declined")`],
    'ValueError: card declined',
  );
  const declinedExc = { exc_type: 'ValueError', exc_module: 'builtins', exc_message: ['card declined'] };
  for (const [i, customer] of ['cus_1001', 'cus_1002', 'cus_1003'].entries()) {
    letter(
      'demo.charge_card',
      'billing',
      [customer, tagged('decimal', '99.00')],
      { decline: true },
      180 + i * 400,
      () => declined,
      () => ({ exc: declinedExc, tb: declined }),
    );
  }
  letter('demo.send_email', 'emails', ['bounce@example.com', 'Invoice'], {}, 900, (id) => {
    const msg = `Can't retry demo.send_email[${id}] args:['bounce@example.com', 'Invoice'] kwargs:{}`;
    return traceback(
      [
        `  File "/srv/shop/demo/tasks.py", line 70, in send_email`,
        '    raise self.retry()',
        '          ^^^^^^^^^^^^',
        `  File "${SITE}/task.py", line 528, in retry`,
        '    raise MaxRetriesExceededError(',
      ],
      `potatoq.exceptions.MaxRetriesExceededError: ${msg}`,
    );
  });
  letter(
    'demo.resize_image',
    'default',
    [tagged('bytes', 'iVBORw0KGgo=')],
    { width: 640 },
    1500,
    () => 'unregistered task demo.resize_image',
    () => ({
      exc: { exc_type: 'NotRegistered', exc_module: 'potatoq.exceptions', exc_message: ['demo.resize_image'] },
      tb: "Task 'demo.resize_image' is not registered. Did you import the module that defines it?",
    }),
  );
  letter(
    'demo.build_report',
    'reports',
    [tagged('date', '2026-09-01')],
    {},
    3600,
    () => 'worker lost too many times',
    (id) => ({
      exc: {
        exc_type: 'WorkerLostError',
        exc_module: 'potatoq.exceptions',
        exc_message: [`Worker node died while running demo.build_report[${id}] 5 time(s)`],
      },
      tb: `WorkerLostError: Worker node died while running demo.build_report[${id}] 5 time(s)`,
    }),
  );
  const limit = (id: string) => `TimeLimitExceeded: Task demo.build_report[${id}] exceeded its time limit (300s) and was killed`;
  letter('demo.build_report', 'reports', [tagged('date', '2026-08-01')], { format: 'xlsx' }, 7200, limit, (id) => ({
    exc: { exc_type: 'TimeLimitExceeded', exc_module: 'potatoq.exceptions', exc_message: [limit(id).slice('TimeLimitExceeded: '.length)] },
    tb: limit(id),
  }));
  letter(
    'demo.send_email',
    'emails',
    ['nobody@example.invalid', 'Hello'],
    { reject: 'mailbox does not exist' },
    86400,
    () => 'mailbox does not exist',
  );

  const done = (id: string, status: string, extra: Parameters<typeof buildResultPayload>[0], age: number, ttl = 86400) =>
    results.push({ id, state: status, payload: buildResultPayload({ ...extra, id, status }), expiresAt: now - age + ttl });
  const ok = randomUUID();
  done(
    ok,
    'SUCCESS',
    {
      id: ok,
      status: 'SUCCESS',
      result: 5,
      dateDone: now - 600,
      name: 'demo.add',
      args: [2, 3],
      kwargs: {},
      worker: HOST,
      dateStarted: now - 601,
      enqueuedAt: now - 605,
    },
    600,
  );
  const revoked = randomUUID();
  done(revoked, 'REVOKED', { id: revoked, status: 'REVOKED', dateDone: now - 1200, name: 'demo.send_email' }, 1200);
  const digest = registeredDigest(DEMO_TASK_NAMES);
  const registered = `potatoq-registered-${digest}`;
  done(registered, 'SUCCESS', { id: registered, status: 'SUCCESS', result: [...DEMO_TASK_NAMES].sort() }, 60, 7 * 86400);
  const group = `group:${randomUUID()}`;
  done(group, 'SUCCESS', { id: group, status: 'SUCCESS', result: [ok, randomUUID()] }, 600);
  return { dead, results };
}

/** Heartbeat rows; `info` is plain `json.dumps` (spaces after separators), not the tagged form. */
export function demoWorkers(now: number, runningIds: string[]): WorkerRow[] {
  const digest = registeredDigest(DEMO_TASK_NAMES);
  return [
    {
      id: DEMO_WORKER_ALIVE,
      heartbeat: now,
      info: pyDumps(
        {
          hostname: HOST,
          pid: 4242,
          queues: ['default', 'emails', 'reports', 'billing'],
          concurrency: 2,
          threads: 1,
          running: runningIds,
          registered: digest,
        },
        false,
      ),
    },
    {
      id: DEMO_WORKER_STALE,
      heartbeat: now - 20 * 60,
      info: pyDumps(
        { hostname: 'potatoq@old-host', pid: 977, queues: ['default'], concurrency: 1, running: [], registered: digest },
        false,
      ),
    },
  ];
}
