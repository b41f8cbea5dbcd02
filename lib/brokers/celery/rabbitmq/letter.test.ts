import type { GetMessage } from 'amqplib';
import { describe, expect, it } from 'vitest';
import { detailOf, summaryOf, toLetter } from './letter';

function msg(body: string, props: Record<string, unknown> = {}): GetMessage {
  return {
    content: Buffer.from(body, 'utf8'),
    fields: { deliveryTag: 1, redelivered: false, exchange: 'dlx', routingKey: 'q', messageCount: 0 },
    properties: { contentType: 'application/json', headers: {}, ...props },
  } as unknown as GetMessage;
}

const DEATH = { 'x-death': [{ count: 1, reason: 'rejected', queue: 'orders', time: { '!': 'timestamp', value: 1796000000 } }] };
const V2 =
  '[[{"__type__": "decimal", "__value__": "12.50"}], {"who": "ann"}, {"callbacks": null, "errbacks": null, "chain": null, "chord": null}]';

describe("a Celery app's dead letter, read as Celery reads it", () => {
  it("names Celery, not potatoq, and decodes the body with kombu's JSON", () => {
    const l = toLetter(
      msg(V2, { messageId: 'c-1', headers: { task: 'shop.charge', id: 'c-1', argsrepr: "(Decimal('12.50'),)", ...DEATH } }),
      'orders.dlq',
    );
    expect(l).toMatchObject({ id: 'c-1', task: 'shop.charge', diedAtMs: 1796000000000 });
    const d = detailOf(l, null);
    expect(JSON.stringify(d)).not.toMatch(/potatoq/i);
    expect(d.payload).toMatchObject({ format: 'celery', task: 'shop.charge', id: 'c-1', foreign: null });
    expect(d.payload.args).toEqual({ t: 'list', items: [{ t: 'decimal', v: '12.50' }] });
    expect(d.conversion).toBeUndefined();
    expect(summaryOf(l)).toMatchObject({ summary: 'rejected', preview: { kind: 'native', text: "(Decimal('12.50'),) {}" } });
  });

  it('says a message that is not a Celery task is not a Celery message', () => {
    const d = detailOf(toLetter(msg('{"hello": 1}', { messageId: 'x-1', headers: DEATH }), 'orders.dlq'), null);
    expect(d.payload.foreign).toMatchObject({
      code: 'not-celery',
      title: 'Not a Celery message',
      reasonBy: 'kombu 5.7',
    });
    expect(JSON.stringify(d)).not.toMatch(/potatoq/i);
  });
});
