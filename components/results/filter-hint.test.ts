import { describe, expect, it } from 'vitest';
import { CELERY_RABBITMQ_MODEL, CELERY_REDIS_MODEL } from '@/lib/brokers/celery/model';
import { POTATOQ_RABBITMQ_MODEL, POTATOQ_REDIS_MODEL, POTATOQ_TABLE_MODEL } from '@/lib/brokers/potatoq/model';
import { QUEUEFLOW_MODEL } from '@/lib/brokers/queueflow/model';
import { resultsWords } from './filter-hint';

describe('the Results page words', () => {
  it("hint each system's own statuses", () => {
    const qf = resultsWords(QUEUEFLOW_MODEL.results, undefined);
    expect(qf.note).toBe('Showing every finished job, newest first; a status is one of COMPLETED, FAILED, CANCELLED.');
    expect(`${qf.does} ${qf.placeholder} ${qf.note}`).not.toContain('FAILURE');
    expect(qf.placeholder).toBe('e.g. COMPLETED');
    const celery = resultsWords(CELERY_REDIS_MODEL.results, 'FAILURE');
    expect(celery.note).toBe('Only FAILURE; a status is one of SUCCESS, FAILURE, RETRY, REVOKED, STARTED.');
    expect(celery.does).toContain('celery-task-meta-*');
  });

  it('come from a declaration on every system that has results', () => {
    for (const m of [
      POTATOQ_TABLE_MODEL,
      POTATOQ_RABBITMQ_MODEL,
      POTATOQ_REDIS_MODEL,
      CELERY_REDIS_MODEL,
      CELERY_RABBITMQ_MODEL,
      QUEUEFLOW_MODEL,
    ])
      expect(m.results?.statuses.length, m.system).toBeGreaterThan(0);
    expect(resultsWords(POTATOQ_TABLE_MODEL.results, undefined).does).toMatch(/^potatoq's stored result records/);
  });

  it("name no system's statuses without a declaration", () => {
    const w = resultsWords(undefined, undefined);
    expect(w.note).toBeNull();
    expect(`${w.does} ${w.placeholder}`).not.toMatch(/FAILURE|SUCCESS|result_expires/);
  });
});
