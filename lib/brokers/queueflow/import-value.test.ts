import { describe, expect, it } from 'vitest';
import { moveKey } from '@/lib/brokers/mapping/job';
import { valueCreate } from './import-value';
import { jobView } from './message';
import { ZJob, type QfJob } from './wire';

const job = (key?: string): QfJob =>
  ZJob.parse({
    id: 'j1',
    queue_name: 'q',
    task_name: 't',
    payload: { a: 1 },
    status: 'pending',
    created_at: '2026-12-01T00:00:00Z',
    delivery_count: 0,
    retry_count: 0,
    ...(key ? { idempotency_key: key } : {}),
  });

describe('a job moved into QueueFlow', () => {
  it("is created with the mapped fields in QueueFlow's create request and the move's key as Idempotency-Key", () => {
    const r = valueCreate({
      sourceId: 'abc',
      key: moveKey('abc'),
      task: 'billing.charge',
      queue: 'billing',
      payload: { order: 7 },
      priority: 3,
      runAt: '2026-12-02T00:00:00.000Z',
      retry: { maxRetries: 2, backoff: 'fixed', delaySecs: 10 },
    });
    expect(r).toEqual({
      body: {
        task_name: 'billing.charge',
        payload: { order: 7 },
        config: { queue: 'billing', priority: 3, max_retries: 2, retry_backoff: 'fixed', retry_delay_secs: 10 },
        run_at: '2026-12-02T00:00:00.000Z',
      },
      headers: { 'idempotency-key': 'console-move-abc' },
    });
  });

  it('says on its page which letter it was moved from; other jobs say nothing of it', () => {
    expect(jobView(job(moveKey('abc'))).fields).toContainEqual({
      name: 'moved_from',
      value: { t: 'str', v: 'letter abc, moved here by the console (its audit trail has the move)' },
    });
    expect(jobView(job('k1')).fields.map((f) => f.name)).not.toContain('moved_from');
  });
});
