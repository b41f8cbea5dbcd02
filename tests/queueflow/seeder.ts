// The contract battery's seeder for QueueFlow: writes and reads the REAL server natively through
// its own API, as its producers (POST /api/v1/jobs) and workers (lease, fail with the worker
// token) do; never through the console's adapter. Dead letters are made the way a worker makes
// them: lease the job, report a non-retryable failure with the reason as its error.
import pg from 'pg';
import type { ContractSeeder, SeedMessage } from '@/tests/contract';
import { call, type QueueflowServer } from './support';

interface Job {
  id: string;
  status: string;
  task_name: string;
  payload: Record<string, unknown>;
  scheduled_at?: string | null;
}
interface Letter {
  id: number;
  job_id: string;
  replayed_at?: string;
}

/** Above any priority a test uses: the dead-letter job is the one the next lease takes. */
const TOP_PRIORITY = 2_000_000_000;

function ok<T>(what: string, r: { status: number; body: unknown }, ...want: number[]): T {
  if (!want.includes(r.status)) throw new Error(`QueueFlow seeder: ${what} answered ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body as T;
}

const payloadOf = (m: SeedMessage): Record<string, unknown> => ({ ...(m.kwargs ?? {}), ...(m.args?.length ? { args: m.args } : {}) });

export function queueflowSeeder(s: QueueflowServer): ContractSeeder {
  const create = async (m: SeedMessage, priority = m.priority ?? 0): Promise<string> => {
    if (m.id) throw new Error('QueueFlow assigns job ids: a seeded job cannot have one');
    const body = {
      task_name: m.task,
      payload: payloadOf(m),
      config: { queue: m.queue, priority, max_retries: 0 },
      ...(m.countdown ? { run_at: new Date(Date.now() + m.countdown * 1000).toISOString() } : {}),
    };
    return ok<{ job_id: string }>('create', await call(s, 'POST', '/api/v1/jobs', { body }), 201).job_id;
  };
  const lease = async (queue: string): Promise<{ id: string; token: string } | null> => {
    const r = ok<{ jobs: Array<{ job: Job; lease_token: string }> }>(
      'lease',
      await call(s, 'POST', `/api/v1/queues/${encodeURIComponent(queue)}/lease`, {
        token: s.workerToken,
        body: { max_jobs: 1, lease_secs: 600, wait_secs: 0 },
      }),
      200,
    );
    const j = r.jobs[0];
    return j ? { id: j.job.id, token: j.lease_token } : null;
  };
  const job = async (id: string): Promise<Job | null> => {
    const r = await call<Job>(s, 'GET', `/api/v1/jobs/${encodeURIComponent(id)}`);
    return r.status === 200 ? r.body : null;
  };
  const backdate = async (letter: number, seconds: number) => {
    const db = new pg.Client({ connectionString: s.databaseUrl });
    await db.connect();
    try {
      await db.query('UPDATE queueflow.dead_letters SET created_at = created_at - make_interval(secs => $1) WHERE id = $2', [
        seconds,
        letter,
      ]);
    } finally {
      await db.end();
    }
  };
  const unsupported = (what: string) => () => Promise.reject(new Error(`QueueFlow has no ${what}`));

  return {
    enqueue: (m) => create(m),
    async enqueueMany(ms) {
      const ids: string[] = [];
      for (const m of ms) ids.push(await create(m));
      return ids;
    },
    claim: async (queue) => (await lease(queue))?.id ?? null,
    async deadLetter(m) {
      // (countdown cannot be honoured: a job is leased now. A letter is made now, then moved back
      // `diedAgo` in QueueFlow's own table, as if it had died then: the server reads it from there.)
      const id = await create({ ...m, countdown: undefined }, TOP_PRIORITY);
      const l = await lease(m.queue);
      if (l?.id !== id) throw new Error(`QueueFlow seeder: leased ${l?.id ?? 'nothing'} instead of ${id}`);
      ok(
        'fail',
        await call(s, 'POST', `/api/v1/jobs/${id}/fail`, {
          token: s.workerToken,
          body: { lease_token: l.token, error: m.reason, retryable: false },
        }),
        204,
      );
      // The letter is inserted right after the job is failed; find it by its job.
      for (let i = 0; i < 50; i++) {
        const page = ok<{ dead_letters: Letter[] }>(
          'dlq',
          await call(s, 'GET', `/api/v1/dlq?queue=${encodeURIComponent(m.queue)}&limit=100`),
          200,
        );
        const found = page.dead_letters.find((d) => d.job_id === id);
        if (found) {
          if (m.diedAgo) await backdate(found.id, m.diedAgo);
          return String(found.id);
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`QueueFlow seeder: no dead letter for job ${id}`);
    },
    deadLetterRaw: unsupported('non-JSON payloads (a payload is a JSON object)'),
    // No storeRegistered: QueueFlow keeps no registered-task records (its workers are anonymous).
    async jobState(id) {
      const j = await job(id);
      if (!j || !['pending', 'retrying', 'running'].includes(j.status)) return null;
      // A pending job not due yet is what QueueFlow's own /queues counts as scheduled.
      const later = j.status === 'pending' && !!j.scheduled_at && Date.parse(j.scheduled_at) > Date.now();
      return later ? 'scheduled' : j.status;
    },
    jobPayload: async (id) => {
      const j = await job(id);
      return j ? JSON.stringify(j.payload) : null;
    },
    async isDead(id) {
      const r = await call<Letter>(s, 'GET', `/api/v1/dlq/${encodeURIComponent(id)}`);
      return r.status === 200 && !r.body.replayed_at;
    },
    async result(id) {
      const j = await job(id);
      return j && ['completed', 'failed', 'cancelled'].includes(j.status)
        ? { status: j.status.toUpperCase(), name: j.task_name, keys: [] }
        : null;
    },
    async queueSizes() {
      const r = ok<{ queues: Array<{ queue: string; pending: number; scheduled: number }> }>(
        'queues',
        await call(s, 'GET', '/api/v1/queues'),
        200,
      );
      return Object.fromEntries(r.queues.map((q) => [q.queue, q.pending + q.scheduled]));
    },
  };
}
