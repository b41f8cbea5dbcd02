import type { GetMessage } from 'amqplib';
import { describe, expect, it } from 'vitest';
import { compareLetters, detailOf, summaryOf, toLetter } from '@/lib/potatoq/amqp-letter';

function msg(body: string, props: Record<string, unknown> = {}): GetMessage {
  return {
    content: Buffer.from(body, 'utf8'),
    fields: { deliveryTag: 1, redelivered: false, exchange: 'potatoq.dlx', routingKey: 'q', messageCount: 0 },
    properties: { headers: {}, ...props },
  } as unknown as GetMessage;
}

const POTATOQ_BODY = '{"task":"t.a","args":[1],"id":"id-1","queue":"q","root_id":"id-1","enqueued_at":1796000000.5,"v":1}';

describe('toLetter reads a DLQ message as `potatoq dead list` does', () => {
  it('does not warn that a foreign letter crashes workers: on RabbitMQ potatoq dead-letters it', () => {
    const l = toLetter(msg('[[2,3],{},{}]', { messageId: 'c-1', headers: { task: 'proj.add', id: 'c-1' } }), 'q');
    expect(l.payload).toMatchObject({ kind: 'foreign', foreign: 'celery-v2', crashesWorkers: false, task: 'proj.add' });
  });

  it('takes the reason and time from potatoq-reason / potatoq-died', () => {
    const l = toLetter(
      msg(POTATOQ_BODY, {
        messageId: 'id-1',
        headers: { 'potatoq-reason': 'Traceback...\nValueError: x\n', 'potatoq-died': 1796000001234 },
      }),
      'q',
    );
    expect(l).toMatchObject({ id: 'id-1', task: 't.a', queue: 'q', diedAtMs: 1796000001234 });
    expect(summaryOf(l).summary).toBe('ValueError: x');
    expect(summaryOf(l).diedAt).toBe(new Date(1796000001234).toISOString());
  });

  it("falls back to the broker's x-death, keeping potatoq's reason text as the summary", () => {
    const death = { count: 1, reason: 'delivery_limit', queue: 'q', time: { '!': 'timestamp', value: 1796000000 }, exchange: '' };
    const l = toLetter(msg(POTATOQ_BODY, { messageId: 'id-1', headers: { 'x-death': [death] } }), 'q');
    expect(summaryOf(l).summary).toBe('delivery_limit');
    expect(l.reason).toContain('x-death: count 1, queue q');
    expect(l.diedAtMs).toBe(1796000000 * 1000);
  });

  it('labels a Celery protocol 2 message with its task, id and arguments from headers and body', () => {
    const l = toLetter(
      msg('[[2, 3], {"z": 1}, {"callbacks": null, "errbacks": null, "chain": null, "chord": null}]', {
        messageId: undefined,
        headers: { task: 'proj.add', id: 'c-1', 'potatoq-reason': 'This is a Celery (protocol 2) message, not a potatoq one.' },
      }),
      'q',
    );
    expect(l.id).toBe('c-1');
    expect(l.task).toBe('proj.add');
    expect(l.payload.kind === 'foreign' && l.payload.foreign).toBe('celery-v2');
    expect(l.payload.kind === 'foreign' && l.payload.celery?.args).toEqual({
      t: 'list',
      items: [
        { t: 'int', v: '2' },
        { t: 'int', v: '3' },
      ],
    });
  });

  it.each([
    ['{"body": "eyJ9", "headers": {"task": "x"}, "properties": {}}', 'kombu-envelope'],
    ['not json', 'invalid-json'],
    ['{"task":"t","id":"n","v":2}', 'newer-protocol'],
    ['{"task":"t"}', 'no-id'],
  ])('labels %s as %s', (body, kind) => {
    const l = toLetter(msg(body, { messageId: 'm' }), 'q');
    expect(l.payload.kind === 'foreign' && l.payload.foreign).toBe(kind);
    expect(l.id).toBe('m');
  });

  it('sorts newest first, unknown times last', () => {
    const at = (id: string, ms: number | null) => ({ ...toLetter(msg(POTATOQ_BODY, { messageId: id }), 'q'), diedAtMs: ms });
    const sorted = [at('a', null), at('b', 1), at('c', 5)].sort(compareLetters).map((l) => l.id);
    expect(sorted).toEqual(['c', 'b', 'a']);
  });
});

// Moved from the service's tests: the conversion preview is now the RabbitMQ adapter's own.
describe('Celery conversion preview', () => {
  const raw = '[[2,3],{"x":1},{"callbacks":null,"errbacks":null,"chain":null,"chord":null}]';
  // As the RabbitMQ adapter sees it: the body, plus Celery's task name and id from the headers.
  const letter = () => toLetter(msg(raw, { headers: { task: 'proj.add', id: 'c-1' } }), 'default');

  it('shows the potatoq message a conversion would send, keeping the Celery id', () => {
    const got = detailOf(letter(), null);
    expect(got.conversion).toMatchObject({ ok: true, task: 'proj.add', id: 'c-1', queue: 'default' });
    const json = (got.conversion as { json: string }).json;
    expect(json).toMatch(
      /^\{"task":"proj\.add","args":\[2,3\],"kwargs":\{"x":1\},"id":"c-1","queue":"default","root_id":"c-1","enqueued_at":[0-9.]+,"v":1\}$/,
    );
  });

  it('offers no conversion for a letter that is not a Celery message', () => {
    expect(detailOf(toLetter(msg(POTATOQ_BODY, { messageId: 'id-1' }), 'q'), null).conversion).toBeUndefined();
  });
});
