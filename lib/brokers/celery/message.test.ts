import { describe, expect, it } from 'vitest';
import { envelopePreview, envelopeView, parseEnvelope, splitBody } from './message';

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

  it("names Celery when a message is not a Celery task, and what a Celery worker can't decode", () => {
    const not = envelopeView(parseEnvelope(envelope('{"hello": 1}', {})), 'q').foreign;
    expect(not).toMatchObject({ code: 'not-celery', title: 'Not a Celery message', reasonBy: 'kombu 5.7' });
    const bad = envelopeView(
      parseEnvelope(envelope('[[{"__type__": "nope", "__value__": 1}], {}, {}]', { task: 't', id: 'i' })),
      'q',
    ).foreign;
    expect(bad).toMatchObject({ code: 'undecodable', title: 'A Celery worker cannot run this message' });
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

describe('a Celery message decoded within bounds', () => {
  const big = envelope(`[["${'z'.repeat(300_000)}"], {}, {}]`, {
    task: 't.big',
    id: 'big-id',
    argsrepr: "('zzz',)",
    eta: '2030-01-01T00:00:00',
  });

  it('splits the body off the envelope kombu writes, escapes included', () => {
    expect(splitBody('{"body": "a\\\\\\"b", "headers": {}}')).toEqual({ body: 'a\\\\\\"b', head: '{"body": "", "headers": {}}' });
    expect(splitBody('{"headers": {}, "body": "x"}')).toBeNull();
    expect(splitBody('not json')).toBeNull();
  });

  it('reads the headers without parsing the body when the headers name the task', () => {
    const e = parseEnvelope(big, { body: 'auto', bodyLimit: 64 * 1024 });
    expect([e.info.task, e.info.id, e.etaMs, e.problem, e.bodyNote, e.info.args]).toEqual([
      't.big',
      'big-id',
      Date.UTC(2030, 0, 1),
      null,
      null,
      null,
    ]);
    expect(e.parsed).toBeLessThan(1000);
    expect(e.size).toBe(big.length);
  });

  it('says a body over the limit was not decoded, and shows the message by its headers', () => {
    const e = parseEnvelope(big, { body: 'decode', bodyLimit: 64 * 1024 });
    expect(e.bodyNote).toMatch(/^body too large to decode here \(message of [\d,]+ bytes\)$/);
    expect(e.problem).toBeNull();
    expect(envelopeView(e, 'q').headers.find((h) => h.name === 'body')?.text).toBe(e.bodyNote);
    expect(envelopePreview(e).text).toBe("('zzz',) {}");
    const whole = parseEnvelope(big);
    expect([whole.bodyNote, whole.parsed > 300_000]).toEqual([null, true]);
  });

  it('does not take a protocol 1 message with an unread body for a foreign one', () => {
    const v1 = envelope(`{"task": "old.add", "id": "v1", "args": ["${'a'.repeat(100)}"]}`, {});
    const head = parseEnvelope(splitBody(v1)!.head, { body: 'decode', bodyLimit: 10, size: v1.length, cut: 'head' });
    expect([head.problem, head.protocol, head.bodyNote !== null]).toEqual([null, null, true]);
  });

  it('refuses a large text that is not laid out as kombu writes, by its size', () => {
    const e = parseEnvelope('x'.repeat(1000), { body: 'decode', bodyLimit: 100, size: 5_000_000, cut: 'prefix' });
    expect(e.problem).toMatch(/too large to decode here \(5,000,000 bytes\)/);
    expect(parseEnvelope(`[${'1,'.repeat(70_000)}1]`, { body: 'auto', bodyLimit: 1000 }).problem).toMatch(/too large to decode here/);
  });
});
