// The way back's rig (test support, not shipped), on tests/support/move-qf-rig.ts: the mapping
// back, the QueueFlow worker that makes the letters (and would record any run of a letter's
// copy), and readers of QueueFlow's letters, jobs and queue. Each test file gets its own.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { call, PyWorker, until } from '@/tests/queueflow/support';
import { getAdapter, Q, s, logs as rigLogs } from '@/tests/support/move-qf-rig';

const { callOfLetter } = await import('@/lib/brokers/mapping/reverse');
const { ZCallMapping } = await import('@/lib/brokers/mapping/schema');

/** Celery's mv.record was migrated to QueueFlow's qf.fatal: positional n and label, the rest kwargs. */
export const BACK = { source: 'celery', target: 'qf', task: 'mv.record', targetTask: 'qf.fatal', args: ['n', 'label'] };
// QueueFlow's worker on queue Q (QueueFlow's queue of that name): it makes the letters, and
// would record any run of a letter's copy.
export const old = s ? new PyWorker(s, Q) : (null as unknown as PyWorker);
export const logs = () => `${rigLogs()}\nqueueflow worker on ${Q}:\n${old?.log.slice(-1500)}`;
let n = 0;

export type Letter = { id: number; job_id: string; replayed_at?: string; replay_job_id?: string };
export const letterOf = async (id: string) => (await call<Letter>(s!, 'GET', `/api/v1/dlq/${id}`)).body;
export const statusOf = async (job: string) => (await call<{ status: string }>(s!, 'GET', `/api/v1/jobs/${job}`)).body.status;
export const paused = async () =>
  (await call<{ queues: Array<{ queue: string; paused?: boolean }> }>(s!, 'GET', '/api/v1/queues')).body.queues.find((x) => x.queue === Q)
    ?.paused ?? false;
export const ranOn = (out: string, id: string) =>
  JSON.parse(fs.readFileSync(path.join(out, `${id}.json`), 'utf8')) as Record<string, unknown>;

/** A qf.fatal job on Q that the real QueueFlow worker dead-letters; its letter id and job id. */
export async function qfLetter(): Promise<{ id: string; job: string; payload: Record<string, unknown> }> {
  const payload = { n: ++n, label: 'x', extra: true };
  const job = (
    await call<{ job_id: string }>(s!, 'POST', '/api/v1/jobs', { body: { task_name: 'qf.fatal', payload, config: { queue: Q } } })
  ).body.job_id;
  const id = await until(
    'the QueueFlow dead letter',
    async () => {
      const page = await call<{ dead_letters: Letter[] }>(s!, 'GET', `/api/v1/dlq?queue=${Q}&limit=100`);
      const l = page.body.dead_letters.find((d) => d.job_id === job);
      return l ? String(l.id) : null;
    },
    40_000,
    logs,
  );
  return { id, job, payload };
}

/** A stopped console's first step, as it made it: the letter's task enqueued on Celery. */
export async function sentByHand(id: string): Promise<string> {
  const c = callOfLetter(ZCallMapping.parse(BACK), (await getAdapter('qf').exportValue!(id))!);
  if (!c.ok) throw new Error(JSON.stringify(c.problems));
  return (await getAdapter('celery').importCall!(c.value)).outcome;
}

/** The letter let go: replayed, its copy cancelled and never run on QueueFlow; the job ran once there. */
export async function lefQueueFlow(id: string, job: string) {
  const l = await letterOf(id);
  expect(l.replay_job_id).toEqual(expect.any(String));
  expect(await statusOf(l.replay_job_id!)).toBe('cancelled');
  expect(await paused()).toBe(false);
  await new Promise((res) => setTimeout(res, 1500));
  expect(old.runs(l.replay_job_id!)).toEqual([]);
  expect(old.runs(job).map((r) => r.outcome)).toEqual(['fatal']);
}
