import { describe, expect, it } from 'vitest';
import type { QueueStats } from '@/lib/brokers/schema';
import { purgeText } from './purge-text';

const stats = (over: Partial<QueueStats>): QueueStats => ({ name: 'mail', ready: 12, scheduled: 3, running: 1, dead: 0, oldestReadyAt: null, tasks: null, ...over }) as QueueStats;

describe('purge dialog text', () => {
  it('counts ready and scheduled tasks on table brokers, capped counts included', () => {
    expect(purgeText('sqlite', stats({}))).toMatchObject({ what: 'every waiting task (ready and scheduled)', count: '12 ready and 3 scheduled right now' });
    expect(purgeText('postgres', stats({ ready: 1000, capped: { ready: { atLeast: 1000, estimate: 48210 } } })).count).toBe('1,000+ (≈48,210) ready and 3 scheduled right now');
  });
  it('says RabbitMQ purges ready messages only, and that delayed ones stay', () => {
    const t = purgeText('rabbitmq', stats({ scheduled: null }));
    expect(t).toMatchObject({ what: 'every ready message', count: '12 ready right now' });
    expect(t.stays).toContain('Delayed tasks');
  });
  it('has no count while the overview is not loaded', () => {
    expect(purgeText(undefined, undefined).count).toBeNull();
  });
});
