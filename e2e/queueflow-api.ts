import { expect } from '@playwright/test';
import { e2eBrokers } from './brokers';
import { e2eQueueflow, type E2eQueueflow } from './queueflow-server';

// The e2e run's REAL QueueFlow server spoken to directly (its HTTP API, as its producers and
// workers do): to seed it natively and to check what the console did there.

export const qf = (): E2eQueueflow => e2eQueueflow(e2eBrokers().dir);

export async function api<T>(method: string, route: string, body?: unknown, token = qf().token!): Promise<{ status: number; body: T }> {
  const r = await fetch(`${qf().url!}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await r.text();
  return { status: r.status, body: (text ? JSON.parse(text) : null) as T };
}

/** A job failed by a worker (lease + non-retryable fail), as QueueFlow's Python worker does; the
 *  queue's oldest claimable job must be this one. Its job id and its letter's id. */
export async function deadLetter(
  queue: string,
  task: string,
  error: string,
  payload: Record<string, unknown> = { n: 5 },
): Promise<{ job: string; letter: string }> {
  const { body } = await api<{ job_id: string }>('POST', '/api/v1/jobs', {
    task_name: task,
    payload,
    config: { queue, max_retries: 0 },
  });
  const lease = await api<{ jobs: Array<{ job: { id: string }; lease_token: string }> }>(
    'POST',
    `/api/v1/queues/${queue}/lease`,
    { max_jobs: 1, lease_secs: 60, wait_secs: 0 },
    qf().workerToken!,
  );
  const leased = lease.body.jobs[0]!;
  expect(leased.job.id).toBe(body.job_id);
  const failed = await api(
    'POST',
    `/api/v1/jobs/${body.job_id}/fail`,
    { lease_token: leased.lease_token, error, retryable: false },
    qf().workerToken!,
  );
  expect(failed.status).toBe(204);
  const dlq = await api<{ dead_letters: Array<{ id: number; job_id: string }> }>('GET', `/api/v1/dlq?queue=${queue}`);
  return { job: body.job_id, letter: String(dlq.body.dead_letters.find((d) => d.job_id === body.job_id)!.id) };
}
