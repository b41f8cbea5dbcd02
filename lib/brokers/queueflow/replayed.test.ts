import { describe, expect, it } from 'vitest';
import type { QfClient } from './client';
import { toDeadSummary } from './dead';
import { createReplayLinks, replayedWhy } from './replayed';
import type { QfDeadLetter } from './wire';

const job = (id: string, status: string, extra: Record<string, unknown> = {}) => ({
  id,
  queue_name: 'q',
  task_name: 'shop.refund',
  payload: {},
  status,
  created_at: '2026-12-01T00:00:01.000001Z',
  delivery_count: 0,
  retry_count: 0,
  ...extra,
});

/** A QueueFlow that answers job reads and the job list from a table, counting calls. */
function fakeClient(jobs: Array<ReturnType<typeof job>>) {
  const calls: string[] = [];
  const client: QfClient = {
    where: 'qf.test',
    post: () => Promise.reject(new Error('no writes here')),
    async get<T>(route: string, query?: Record<string, unknown>): Promise<T> {
      calls.push(route);
      if (route === '/api/v1/jobs') {
        const rows = jobs.filter((j) => j.task_name === query?.task_name && j.created_at > String(query?.created_after));
        return { jobs: rows, has_more: false } as T;
      }
      const found = jobs.find((j) => route === `/api/v1/jobs/${j.id}`);
      if (!found) throw Object.assign(new Error('gone'), { code: 'NotFound' });
      return found as T;
    },
  };
  return { client, calls };
}

const letter = (id: number, copy?: string): QfDeadLetter => ({
  id,
  job_id: 'orig',
  queue_name: 'q',
  task_name: 'shop.refund',
  reason: 'non_retryable',
  error_message: 'no',
  created_at: '2026-12-01T00:00:00Z',
  replayed_at: copy ? '2026-12-01T00:00:01Z' : undefined,
  replay_job_id: copy,
});

describe('the job a replayed QueueFlow letter runs as', () => {
  it('is the edited job after an edit-replay, not the unedited copy QueueFlow recorded and the console cancelled', async () => {
    const { client, calls } = fakeClient([
      job('copy', 'cancelled'),
      job('other', 'pending', { created_at: '2026-12-01T00:00:02Z' }),
      job('edited', 'pending', { created_at: '2026-12-01T00:00:02Z', idempotency_key: 'console-edit-dlq-7' }),
    ]);
    const links = createReplayLinks(client);
    expect(await links.jobOf(letter(7, 'copy'))).toBe('edited');
    const before = calls.length;
    expect(await links.jobOf(letter(7, 'copy'))).toBe('edited');
    expect(calls.length).toBe(before); // settled: remembered
    expect(await links.jobOf(letter(8))).toBeNull();
  });

  it("is QueueFlow's copy after a plain replay, also one an operator cancelled", async () => {
    const { client } = fakeClient([job('ran', 'completed'), job('stopped', 'cancelled')]);
    const links = createReplayLinks(client);
    expect(await links.jobOf(letter(1, 'ran'))).toBe('ran');
    expect(await links.jobOf(letter(2, 'stopped'))).toBe('stopped');
  });

  it('declares the replay of a replayed letter off, naming that job', () => {
    expect(toDeadSummary(letter(7, 'copy'), 'edited')).toMatchObject({
      replayed: { taskId: 'edited' },
      unavailable: { replay: replayedWhy('edited') },
    });
    expect(replayedWhy('edited')).toBe('already replayed as job edited; QueueFlow replays a letter once');
    expect(toDeadSummary(letter(8)).unavailable).toBeUndefined();
  });
});
