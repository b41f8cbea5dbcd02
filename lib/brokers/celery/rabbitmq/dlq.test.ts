import type { GetMessage } from 'amqplib';
import { describe, expect, it } from 'vitest';
import { ZDeadListQuery, type DeadSummary } from '@/lib/brokers/schema';
import { republishProps } from './dlq-actions';
import { celeryLetter, deathOf, letterEntries, letterFingerprint, mergeDead } from './dlq';

const death = (queue: string, reason: string, time = 1796000000) => ({
  count: 1,
  reason,
  queue,
  time: { '!': 'timestamp', value: time },
  exchange: queue,
  'routing-keys': [queue],
});

function msg(id: string, headers: Record<string, unknown>, props: Record<string, unknown> = {}): GetMessage {
  return {
    content: Buffer.from('[["x"], {}, {"callbacks": null, "errbacks": null, "chain": null, "chord": null}]', 'utf8'),
    fields: { deliveryTag: 1, redelivered: false, exchange: '', routingKey: 'dead', messageCount: 0 },
    properties: {
      headers: { lang: 'py', task: 'ct.reject', id, ...headers },
      correlationId: id,
      contentType: 'application/json',
      ...props,
    },
  } as unknown as GetMessage;
}

const record = (id: string, diedAt: string): DeadSummary => ({
  id,
  queue: 'work',
  task: 'ct.reject',
  summary: 'Reject: no',
  diedAt,
  preview: { kind: 'native', text: '' },
});

describe("a Celery app's dead-letter queue", () => {
  it("files a letter under the queue it died in and groups it by RabbitMQ's reason", () => {
    const l = celeryLetter(msg('t-1', { 'x-death': [death('work', 'rejected')] }), 'dead');
    expect(l).toMatchObject({ id: 't-1', queue: 'work', task: 'ct.reject' });
    expect(deathOf(l.headers)).toEqual({ queue: 'work', reason: 'rejected', exchange: 'work', routingKeys: ['work'] });
    const expired = celeryLetter(msg('t-2', { 'x-death': [death('work', 'expired')] }), 'dead');
    expect(letterFingerprint(l).pattern).toBe('Dead-lettered by RabbitMQ (rejected)');
    expect(letterFingerprint(l).key).not.toBe(letterFingerprint(expired).key);
    expect(letterFingerprint(celeryLetter(msg('t-3', { 'x-death': [death('other', 'rejected')] }), 'dead')).key).toBe(
      letterFingerprint(l).key,
    );
  });

  it('lists a task with a FAILURE record once, as its record, whatever the filter', () => {
    const both = celeryLetter(msg('t-1', { 'x-death': [death('work', 'rejected', 1796000001)] }), 'dead');
    const alone = celeryLetter(msg('t-2', { 'x-death': [death('work', 'rejected', 1796000000)] }), 'dead');
    const recorded = new Set(['t-1']);
    const all = mergeDead([record('t-1', '2026-12-01T10:00:00.000Z')], recorded, [both, alone], ZDeadListQuery.parse({}));
    expect(all.items.map((d) => d.id)).toEqual(['t-1', 't-2']);
    // Filtered by the letters' group, the recorded task is not there (it is in its record's group).
    const byGroup = mergeDead([], recorded, [both, alone], ZDeadListQuery.parse({ group: letterFingerprint(alone).key }));
    expect(byGroup.items.map((d) => d.id)).toEqual(['t-2']);
    expect(letterEntries([both, alone], recorded, {}).map((e) => e.id)).toEqual(['t-2']);
  });

  it('pages records and letters together, each once', () => {
    const letters = ['a', 'b', 'c'].map((id, i) =>
      celeryLetter(msg(id, { 'x-death': [death('work', 'rejected', 1796000000 + i)] }), 'dead'),
    );
    const records = [record('r', new Date(1796000001500).toISOString())];
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const p = mergeDead(records, new Set(['r']), letters, ZDeadListQuery.parse({ limit: 1, ...(cursor ? { cursor } : {}) }));
      seen.push(...p.items.map((d) => d.id));
      cursor = p.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(['c', 'r', 'b', 'a']);
  });

  it("republishes the same message without RabbitMQ's death and delivery headers", () => {
    const m = msg(
      't-1',
      {
        'x-death': [death('work', 'rejected')],
        'x-first-death-queue': 'work',
        'x-last-death-reason': 'rejected',
        'x-delivery-count': 2,
        retries: 0,
      },
      { deliveryMode: 2, priority: 0, replyTo: 'r-1', userId: 'someone' },
    );
    const p = republishProps(m);
    expect(p.headers).toEqual({ lang: 'py', task: 'ct.reject', id: 't-1', retries: 0 });
    expect(p).toMatchObject({
      correlationId: 't-1',
      replyTo: 'r-1',
      deliveryMode: 2,
      priority: 0,
      contentType: 'application/json',
      mandatory: true,
    });
    expect(p).not.toHaveProperty('userId');
  });
});
