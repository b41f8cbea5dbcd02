import { describe, expect, it } from 'vitest';
import type { EnqueueDecl } from '@/lib/brokers/schema';
import { enqueueLater, enqueueNow, enqueueWrongShapes } from './enqueue-sample';

const QF: EnqueueDecl = {
  does: 'Creates one job.',
  defaultQueue: 'jobs',
  fields: [
    { key: 'payload', kind: 'json-object', label: 'Payload' },
    { key: 'max_attempts', kind: 'integer', label: 'Max attempts' },
    { key: 'run_at', kind: 'datetime', label: 'Run at', schedules: true },
    { key: 'meta', kind: 'json-object', label: 'Meta', advanced: true },
  ],
};

describe("the battery's enqueue requests, from the declaration alone", () => {
  it('fills the JSON fields for a task due now, and schedules through the declared field', () => {
    expect(enqueueNow(QF, 't', 'q')).toEqual({ task: 't', queue: 'q', fields: { payload: '{"k": "v"}' } });
    expect(enqueueLater(QF, 't', 'q', Date.UTC(2026, 0, 1))).toEqual({
      task: 't',
      queue: 'q',
      fields: { run_at: '2026-01-01T00:10:00.000Z' },
    });
    expect(enqueueLater({ ...QF, fields: [] }, 't', 'q')).toBeNull();
  });

  it('gives each JSON field a value of the wrong shape', () => {
    expect(enqueueWrongShapes(QF)).toEqual([
      ['payload', '[1]'],
      ['meta', '[1]'],
    ]);
  });
});
