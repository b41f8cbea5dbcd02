import { describe, expect, it } from 'vitest';
import { celeryWorkQueues, neverCeleryWork } from './queues';

const own = (q: string) => ({ exchange: q, routingKey: q, queue: q });

describe("a Celery app's work queues on a shared RabbitMQ vhost", () => {
  it("keeps kombu's queues and the default one, and leaves out potatoq's and everything Celery uses for control", () => {
    const queues = [
      'celery',
      'emails',
      'reports',
      'billing', // a potatoq work queue: bound to potatoq's exchanges, not kombu's
      'billing.dlq',
      'potatoq.delay.L11',
      'potatoq-console.browsing.billing.dlq',
      'celery@web-1.celery.pidbox',
      'f1e2.reply.celery.pidbox',
      'celeryev.7f1c',
      'celery_delayed_27',
      'amq.gen-abc',
      'dead',
      'orphan', // declared by something else, named by nothing of Celery's
      'legacy', // only a failure record names it
    ];
    const bindings = [
      own('celery'),
      own('emails'),
      { exchange: 'celery', routingKey: 'reports', queue: 'reports' },
      { exchange: 'potatoq.delivery', routingKey: 'billing', queue: 'billing' },
      { exchange: 'potatoq.dlx', routingKey: 'billing', queue: 'billing.dlq' },
      own('billing.dlq'), // even a kombu-looking binding does not make a DLQ a work queue
      { exchange: 'celery.pidbox', routingKey: '', queue: 'celery@web-1.celery.pidbox' },
      own('dead'),
      { exchange: '', routingKey: 'orphan', queue: 'orphan' },
    ];
    expect(celeryWorkQueues(queues, bindings, ['legacy', 'gone'], 'dead')).toEqual(['celery', 'emails', 'legacy', 'reports']);
  });

  it('says why a queue is never a work queue', () => {
    expect(neverCeleryWork('potatoq.delay.L11')).toMatch(/potatoq/);
    expect(neverCeleryWork('x.dlq')).toMatch(/DLQ/);
    expect(neverCeleryWork('celeryev.1')).toMatch(/control/);
    expect(neverCeleryWork('emails')).toBeNull();
  });
});
