import { describe, expect, it } from 'vitest';
import { isConsoleError } from '@/lib/brokers/errors';
import { ZEnqueueRequest } from '@/lib/brokers/schema';
import { parseEnvelope } from './message';
import { buildSendTask, isoUtc, sendTaskInput } from './send-task';

const req = (over: Record<string, unknown> = {}) => ZEnqueueRequest.parse({ task: 'shop.charge', queue: 'billing', fields: { ...over } });

describe("send_task's message", () => {
  it('has the protocol 2 headers, reprs and routing send_task writes', () => {
    const m = buildSendTask(
      sendTaskInput(req({ args: '[1, "a"]', kwargs: '{"k": {"__type__": "decimal", "__value__": "2.50"}}', priority: 5 })),
    );
    const env = JSON.parse(m.json) as { headers: Record<string, unknown>; properties: Record<string, unknown>; body: string };
    expect(Object.keys(env.headers)).toEqual([
      'lang',
      'task',
      'id',
      'shadow',
      'eta',
      'expires',
      'group',
      'group_index',
      'retries',
      'timelimit',
      'root_id',
      'parent_id',
      'argsrepr',
      'kwargsrepr',
      'origin',
      'ignore_result',
      'replaced_task_nesting',
      'stamped_headers',
      'stamps',
    ]);
    expect(env.headers).toMatchObject({
      task: 'shop.charge',
      argsrepr: "[1, 'a']",
      kwargsrepr: "{'k': Decimal('2.50')}",
      root_id: m.id,
      retries: 0,
    });
    expect(env.properties).toMatchObject({ correlation_id: m.id, priority: 5, delivery_info: { exchange: '', routing_key: 'billing' } });
    expect(Buffer.from(env.body, 'base64').toString()).toBe(
      '[[1, "a"], {"k": {"__type__": "decimal", "__value__": "2.50"}}, {"callbacks": null, "errbacks": null, "chain": null, "chord": null}]',
    );
    const back = parseEnvelope(m.json);
    expect([back.protocol, back.problem, back.info.task, back.priority]).toEqual([2, null, 'shop.charge', 5]);
  });

  it('turns a countdown into an aware ISO eta, and merges extra headers', () => {
    const now = Date.UTC(2026, 0, 2, 3, 4, 5, 123);
    const input = sendTaskInput(req({ countdown: 60, headers: '{"trace": "x", "retries": 3}' }), now);
    expect(isoUtc(input.etaMs!)).toBe('2026-01-02T03:05:05.123000+00:00');
    const env = JSON.parse(buildSendTask(input).json) as { headers: Record<string, unknown> };
    expect(env.headers.retries).toBe(3);
    expect(Object.keys(env.headers).at(-1)).toBe('trace');
  });

  it('names the field of bad input', () => {
    for (const [field, over] of [
      ['args', { args: '{"a": 1}' }],
      ['kwargs', { kwargs: '[]' }],
      ['args', { args: '[{"__type__": "nope", "__value__": 1}]' }],
      ['eta', { eta: 'tomorrow-ish' }],
    ] as const) {
      const err = (() => {
        try {
          sendTaskInput(req(over));
        } catch (e) {
          return e;
        }
        return null;
      })();
      expect(isConsoleError(err) && Object.keys(err.fields ?? {})).toEqual([field]);
    }
  });
});
