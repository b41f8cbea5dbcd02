import { describe, expect, it } from 'vitest';
import { CELERY_RABBITMQ_MODEL, CELERY_REDIS_MODEL } from '@/lib/brokers/celery/model';
import { POTATOQ_RABBITMQ_MODEL, POTATOQ_REDIS_MODEL, POTATOQ_TABLE_MODEL } from '@/lib/brokers/potatoq/model';
import { QUEUEFLOW_MODEL } from '@/lib/brokers/queueflow/model';
import { SDJ_MODEL } from '@/lib/brokers/sdj/broker-model';
import type { MessageView } from '@/lib/brokers/schema';
import { payloadValue, revokeWords, taskNoun, taskWords } from './task-words';

const view = (over: Partial<MessageView>): MessageView => ({
  format: 'x',
  task: 't',
  id: '1',
  queue: 'q',
  args: null,
  kwargs: null,
  fields: [],
  headers: [],
  flags: [],
  foreign: null,
  value: null,
  ...over,
});

describe("a task in its system's words", () => {
  it("keep potatoq's tasks, arguments, deliveries and revoke", () => {
    for (const m of [POTATOQ_TABLE_MODEL, POTATOQ_RABBITMQ_MODEL, POTATOQ_REDIS_MODEL]) {
      const t = taskWords(m);
      expect([t.noun, t.payload.shape, t.deliveries.label]).toEqual(['task', 'call', 'Deliveries']);
      expect(t.deliveries.help).toContain('claimed');
      expect(revokeWords(m)).toEqual({ verb: 'Revoke', past: 'revoked' });
    }
  });

  it("name Celery's count its retries, as its `retries` header does", () => {
    for (const m of [CELERY_REDIS_MODEL, CELERY_RABBITMQ_MODEL]) {
      const t = taskWords(m);
      expect([t.noun, t.payload.shape, t.deliveries.label]).toEqual(['task', 'call', 'Retries']);
      expect(t.deliveries.help).toContain('retries');
      expect(revokeWords(m).verb).toBe('Revoke');
    }
  });

  it('call SDJ jobs jobs, with one args value, an attempt counter and Cancel', () => {
    const t = taskWords(SDJ_MODEL);
    expect([t.noun, t.nouns, t.deliveries.label]).toEqual(['job', 'jobs', 'Attempt']);
    expect(t.payload).toMatchObject({ shape: 'value', label: 'Args' });
    expect(revokeWords(SDJ_MODEL)).toEqual({ verb: 'Cancel', past: 'cancelled' });
    expect(taskNoun(t, 1)).toBe('job');
    expect(taskNoun(t, 2)).toBe('jobs');
  });

  it("call QueueFlow's jobs jobs, with a payload object, its delivery_count and Cancel", () => {
    const t = taskWords(QUEUEFLOW_MODEL);
    expect(t.noun).toBe('job');
    expect(t.payload).toMatchObject({ shape: 'value', label: 'Payload' });
    expect(t.deliveries.help).toContain('delivery_count');
    expect(revokeWords(QUEUEFLOW_MODEL)).toEqual({ verb: 'Cancel', past: 'cancelled' });
  });

  it('fall back to the console’s words before the overview loads', () => {
    expect(taskWords(undefined).noun).toBe('task');
    expect(revokeWords(null).verb).toBe('Revoke');
  });

  it('find the one value wherever the adapter put it', () => {
    const list = { t: 'list' as const, items: [] };
    const obj = { t: 'dict' as const, entries: [] };
    const scalar = { t: 'int' as const, v: '7' };
    expect(payloadValue(view({ args: list }))).toEqual({ value: list, field: null });
    expect(payloadValue(view({ kwargs: obj }))).toEqual({ value: obj, field: null });
    expect(payloadValue(view({ fields: [{ name: 'args', value: scalar }] }))).toEqual({ value: scalar, field: 'args' });
    expect(payloadValue(view({}))).toBeNull();
  });
});
