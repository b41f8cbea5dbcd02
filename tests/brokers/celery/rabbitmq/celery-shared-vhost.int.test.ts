// A Celery app on a RabbitMQ vhost it shares with potatoq (real RabbitMQ 3.10 and 4.3): the
// console lists and sums only Celery's queues, declared by the real Celery 5.7 (send_task), and
// leaves out potatoq's work queue, its DLQ and its delay queues, declared by the real potatoq.
// int-lane: owns rabbitmq; uses redis/9 (sums the queues of a shared vhost; results under a per-run prefix)
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { uniqueQueue } from '@/tests/contract';
import { newTag, REDIS_URL, RMQ3_MGMT, RMQ3_URL, RMQ4_MGMT, RMQ4_URL, rabbitVersion, spawnRabbitSeeder } from '@/tests/support/rabbitmq';
import { newCeleryWorld, redisAvailable, spawnCelerySeeder } from '@/tests/brokers/celery/redis/support';
import { createCeleryRabbitAdapter } from '@/lib/brokers/celery/rabbitmq/adapter';

const redisUp = await redisAvailable();
const SERVERS = [
  { label: 'RabbitMQ 3.10', url: RMQ3_URL, mgmt: RMQ3_MGMT, up: !!(await rabbitVersion(RMQ3_URL, 'RabbitMQ 3.x', (m) => m === 3)) },
  { label: 'RabbitMQ 4.3', url: RMQ4_URL, mgmt: RMQ4_MGMT, up: !!(await rabbitVersion(RMQ4_URL, 'RabbitMQ 4.x', (m) => m >= 4)) },
];

for (const s of SERVERS) {
  describe.skipIf(!s.up || !redisUp)(`celery on ${s.label}, a vhost shared with potatoq`, () => {
    it("lists and sums only Celery's queues, and advises workers only for them", async () => {
      const tag = newTag();
      const potatoqQueue = `pq${tag}`;
      const celeryQueue = uniqueQueue('shared');
      const pq = spawnRabbitSeeder(s.url, REDIS_URL, tag);
      const w = newCeleryWorld(0, 9);
      const prefix = `ctsh${randomBytes(4).toString('hex')}`;
      const cy = spawnCelerySeeder({ ...w, broker: s.url, env: { ...w.env, CT_BROKER: s.url, CT_RESULT_PREFIX: prefix } });
      const a = createCeleryRabbitAdapter({
        id: 'shared',
        name: 'shared',
        url: s.url,
        readOnly: false,
        options: { resultBackend: w.backend, resultKeyprefix: prefix, managementUrl: s.mgmt, inspectTimeoutMs: 300 },
      });
      try {
        // potatoq: a work queue with its DLQ, a dead letter in it, and a delayed task (delay queues).
        await pq.call('dead_letter_bulk', { queue: potatoqQueue, n: 3 });
        await pq.call('enqueue', { task: 'pq.later', queue: potatoqQueue, countdown: 3600 });
        // Celery: two tasks sent to a queue of its own, which send_task declares kombu's way.
        for (const i of [1, 2]) await cy.call('enqueue', { task: 'ct.add', queue: celeryQueue, args: [i, i] });

        const o = await a.overview();
        const names = o.queues.map((q) => q.name);
        expect(names).toContain(celeryQueue);
        expect(o.queues.find((q) => q.name === celeryQueue)?.counts.ready).toBe(2);
        expect(names).not.toContain(potatoqQueue);
        expect(names.filter((n) => n.endsWith('.dlq') || n.startsWith('potatoq.') || n.startsWith('potatoq-console.'))).toEqual([]);
        // The worker advice names only Celery's queues.
        const d = await a.diagnose!({ overdueSeconds: 60, revoke: { on: true } });
        expect(JSON.stringify(d)).not.toMatch(/potatoq\.delay|\.dlq|pq${tag}/);
        expect(JSON.stringify(d)).toContain(celeryQueue);
      } finally {
        await a.close();
        await cy.call('delete_queues').catch(() => undefined);
        await cy.close();
        await pq.call('cleanup').catch(() => undefined);
        await pq.close();
      }
    }, 120_000);
  });
}
