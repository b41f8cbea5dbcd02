import { describe, expect, it } from 'vitest';
import { CELERY_RABBITMQ_MODEL, CELERY_REDIS_MODEL } from '@/lib/brokers/celery/model';
import { POTATOQ_RABBITMQ_MODEL, POTATOQ_REDIS_MODEL, POTATOQ_TABLE_MODEL } from '@/lib/brokers/potatoq/model';
import { QUEUEFLOW_MODEL } from '@/lib/brokers/queueflow/model';
import { workersWords } from './words';

const all = (w: ReturnType<typeof workersWords>) => `${w.known} ${w.empty} ${w.seen}`;

describe('the Workers page words', () => {
  it('tell potatoq users about heartbeats and `potatoq worker`', () => {
    for (const m of [POTATOQ_TABLE_MODEL, POTATOQ_RABBITMQ_MODEL, POTATOQ_REDIS_MODEL]) {
      const w = workersWords(m.workers);
      expect(w.known).toContain('heartbeats');
      expect(w.empty).toBe('No worker heartbeats are stored. Start one with `potatoq worker`.');
      expect(w.seen).toBe('Heartbeat');
    }
  });

  it("tell Celery users how Celery's workers are found and started, never potatoq's", () => {
    for (const m of [CELERY_REDIS_MODEL, CELERY_RABBITMQ_MODEL]) {
      const w = workersWords(m.workers);
      expect(all(w)).not.toMatch(/potatoq|heartbeats are stored/);
      expect(w.known).toContain('inspect');
      expect(w.empty).toContain('celery -A <your app> worker');
      expect(w.seen).toBe('Answered');
    }
  });

  it('say QueueFlow keeps no worker registry, and offer no command it does not have', () => {
    const w = workersWords(QUEUEFLOW_MODEL.workers);
    expect(all(w)).not.toMatch(/potatoq|Start one/);
    expect(w.known).toContain('no worker registry');
    expect(w.empty).toContain('no worker registry');
  });

  it("name no system's workers without a declaration", () => {
    expect(all(workersWords(undefined))).not.toMatch(/potatoq|celery|heartbeat/i);
  });
});
