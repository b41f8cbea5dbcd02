import { describe, expect, it } from 'vitest';
import type { QueueStats } from '@/lib/brokers/schema';
import { POTATOQ_RABBITMQ_MODEL, POTATOQ_TABLE_MODEL } from '@/lib/brokers/potatoq/model';
import { purgeText } from './purge-text';

const TABLES = POTATOQ_TABLE_MODEL.actions.purge;
const RABBITMQ = POTATOQ_RABBITMQ_MODEL.actions.purge;

const stats = (over: Partial<QueueStats> & { ready?: number; scheduled?: number | null }): QueueStats => {
  const { ready = 12, scheduled = 3, counts, ...rest } = over;
  return { name: 'mail', counts: counts ?? { ready, scheduled, running: 1 }, dead: 0, oldestWaitingAt: null, tasks: null, ...rest };
};

describe('purge dialog text', () => {
  it('counts ready and scheduled tasks on table brokers (SQLite, PostgreSQL), capped counts included', () => {
    expect(purgeText(TABLES, stats({}))).toMatchObject({
      what: 'every waiting task (ready and scheduled)',
      count: '12 ready and 3 scheduled right now',
    });
    expect(purgeText(TABLES, stats({ ready: 1000, capped: { ready: { atLeast: 1000, estimate: 48210 } } })).count).toBe(
      '1,000+ (≈48,210) ready and 3 scheduled right now',
    );
  });
  it('says RabbitMQ purges ready messages only, and that delayed ones stay', () => {
    const t = purgeText(RABBITMQ, stats({ scheduled: null }));
    expect(t).toMatchObject({ what: 'every ready message', count: '12 ready right now' });
    expect(t.stays).toContain('Delayed tasks');
  });
  it('has no count while the overview is not loaded', () => {
    expect(purgeText(undefined, undefined).count).toBeNull();
  });
  it("counts the states another system's adapter declares for its purge", () => {
    const decl = { does: '', what: 'every pending job', counts: ['pending', 'waiting'], stays: 'Running jobs stay.' };
    expect(purgeText(decl, stats({ counts: { pending: 4, waiting: 2 } })).count).toBe('4 pending and 2 waiting right now');
    expect(purgeText(decl, stats({ counts: { pending: 4 } })).count).toBeNull();
  });
});
