import { describe, expect, it } from 'vitest';
import { envelopeView, parseEnvelope } from './message';

const envelope = (body: string, headers: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    body: Buffer.from(body).toString('base64'),
    'content-encoding': 'utf-8',
    'content-type': 'application/json',
    headers,
    properties: { priority: 3, body_encoding: 'base64', delivery_info: { exchange: '', routing_key: 'q' } },
    ...extra,
  });

describe('a Celery message from a kombu list', () => {
  it('reads protocol 1: everything in the body', () => {
    const e = parseEnvelope(
      envelope('{"task": "old.add", "id": "v1-id", "args": [1, 2], "kwargs": {}, "eta": "2030-01-01T00:00:00", "retries": 2}', {}),
    );
    expect([e.protocol, e.info.task, e.info.id, e.info.retries, e.problem]).toEqual([1, 'old.add', 'v1-id', '2', null]);
    expect(e.etaMs).toBe(Date.UTC(2030, 0, 1));
    expect(envelopeView(e, 'q').headersTitle).toMatch(/protocol 1/);
  });

  it('reads protocol 2 with chain and callbacks from the embed', () => {
    const e = parseEnvelope(
      envelope('[[1], {"k": 2}, {"callbacks": [{"task": "cb"}], "errbacks": null, "chain": [{"task": "next"}], "chord": null}]', {
        task: 'shop.pay',
        id: 'v2-id',
        root_id: 'root',
        parent_id: 'parent',
        argsrepr: '(1,)',
      }),
    );
    const v = envelopeView(e, 'q');
    expect([v.task, v.id, e.protocol]).toEqual(['shop.pay', 'v2-id', 2]);
    expect(v.fields.map((f) => f.name)).toEqual(['callbacks', 'chain']);
    expect(v.headers.find((h) => h.name === 'parent_id')?.text).toBe('parent');
    expect(v.headers.find((h) => h.name === 'argsrepr')?.carriesArgs).toBe(true);
  });

  it('flags what a worker cannot take: not JSON, another content type, no task', () => {
    expect(parseEnvelope('nope').problem).toMatch(/not a kombu message envelope/);
    expect(parseEnvelope(envelope('x', { task: 't', id: 'i' }, { 'content-type': 'application/x-python-serialize' })).problem).toMatch(
      /content type application\/x-python-serialize/,
    );
    expect(parseEnvelope(envelope('[[], {}, {}]', {})).problem).toMatch(/no task name/);
  });
});
