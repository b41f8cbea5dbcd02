// The shared adapter battery on a real RabbitMQ 4.3 (scripts/services.sh up rabbitmq4) with a Redis result
// backend under a per-test key prefix, seeded by the real potatoq (tests/py/seeder_rabbit.py).
// Tests that need what RabbitMQ can't give (listing queued messages, removing a queued task)
// are skipped with the adapter's own reason (its capabilities); tests/roundtrip/rabbitmq.int.test.ts covers RabbitMQ's own ways.
// int-lane: owns rabbitmq; uses redis/0 (RabbitMQ as a whole, conservatively; results under per-test prefixes)
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { isConsoleError } from '@/lib/brokers/errors';
import { AmqpLink } from '@/lib/transports/amqp/connection';
import { countIn } from '@/lib/brokers/potatoq/counts';
import { ROOT } from '@/tests/support/potatoq-seeder';
import { runAdapterContract, type ContractFixture, type ContractSeeder } from '@/tests/contract';
import { runPotatoqBattery } from '../battery';
import {
  mgmtQueue,
  newTag,
  rabbitAdapter,
  rabbitVersion,
  redisAvailable,
  REDIS_URL,
  RMQ4_MGMT,
  RMQ4_URL,
  spawnRabbitSeeder,
  until,
} from '@/tests/support/rabbitmq';

execFileSync('bash', [path.join(ROOT, 'scripts/ensure-venv.sh')], { stdio: 'inherit' });
const available = (await rabbitVersion(RMQ4_URL, 'RabbitMQ 4.x', (m) => m >= 4)) && (await redisAvailable());

function fixture() {
  return async (): Promise<ContractFixture> => {
    const prefix = newTag();
    const py = spawnRabbitSeeder(RMQ4_URL, REDIS_URL, prefix);
    const claims = new Map<string, number>();
    const options = { managementUrl: RMQ4_MGMT, resultBackend: REDIS_URL, resultBackendOptions: { prefix } };
    const seeder: ContractSeeder = {
      enqueue: (m) => py.call('enqueue', { ...m }),
      enqueueMany: (ms) => py.call('enqueue_many', { items: ms }),
      claim: async (queue) => {
        const id = await py.call<string | null>('claim', { queue });
        if (id) {
          // The management API's counts are sampled every 5 s: wait until it shows the claim.
          const n = (claims.get(queue) ?? 0) + 1;
          claims.set(queue, n);
          await until(
            `management API to show ${n} unacked in ${queue}`,
            async () => ((await mgmtQueue(RMQ4_MGMT, queue))?.unacked ?? 0) >= n,
            20_000,
          );
        }
        return id;
      },
      deadLetter: (m) => py.call('dead_letter', { ...m, died_ago: m.diedAgo }),
      declareQueue: (queue) => py.call('declare', { queue }),
      deadLetterRaw: (r) => py.call('dead_letter_raw', r),
      heartbeat: (id, info, age) => py.call('heartbeat', { id, info, age }),
      garbageWorker: (id, info) => py.call('raw_worker', { id, info }),
      storeRegistered: (digest, names) => py.call('store_registered', { digest, names }),
      jobState: (id) => py.call('job_state', { id }),
      jobPayload: (id) => py.call('job_payload', { id }),
      isDead: (id) => py.call('is_dead', { id }),
      result: (id) => py.call('result', { id }),
      queueSizes: () => py.call('queue_sizes'),
    };
    const adapters = [rabbitAdapter(RMQ4_URL, options)];
    return {
      adapter: adapters[0]!,
      makeSecond: () => {
        const b = rabbitAdapter(RMQ4_URL, options);
        adapters.push(b);
        return b;
      },
      seeder,
      unknownCounts: ['scheduled'],
      noOldestWaiting: true,
      async cleanup() {
        await Promise.all(adapters.map((a) => a.close()));
        await py.call('cleanup').catch(() => undefined);
        await py.close();
      },
    };
  };
}

describe.skipIf(!available)('rabbitmq 4', () => {
  // Cases RabbitMQ can't take skip with the adapter's own reasons (listing queued messages is off);
  // what potatoq's RabbitMQ broker does differently is covered in the round trips.
  runAdapterContract('rabbitmq 4.x + Redis results', fixture());
  runPotatoqBattery('rabbitmq 4.x + Redis results', fixture(), { tables: false });
});

describe.skipIf(!available)('rabbitmq 4: connection, errors and broker-side letters', () => {
  it('names the server but never the password when the login is refused or the port is closed', async () => {
    const bad = rabbitAdapter(RMQ4_URL.replace('potatoq:potatoq@', 'potatoq:wrong-s3cret@'), {});
    const closed = rabbitAdapter('amqp://u:other-s3cret@127.0.0.1:1/', {});
    try {
      for (const a of [bad, closed]) {
        const e = await a.capabilities().catch((x: unknown) => x);
        expect(isConsoleError(e) && e.code).toBe('BrokerUnavailable');
        expect(String((e as Error).message)).not.toMatch(/s3cret/);
        expect(String((e as Error).message)).toMatch(/RabbitMQ at 127\.0\.0\.1:/);
      }
    } finally {
      await bad.close();
      await closed.close();
    }
  });

  it("shows a letter RabbitMQ dead-lettered itself (delivery limit) with x-death's reason", async () => {
    const tag = newTag();
    const queue = `xd${tag}`;
    const py = spawnRabbitSeeder(RMQ4_URL, REDIS_URL, tag);
    const a = rabbitAdapter(RMQ4_URL, { managementUrl: RMQ4_MGMT, resultBackend: REDIS_URL, resultBackendOptions: { prefix: tag } });
    try {
      const id = await py.call<string>('broker_dead_letter', { task: 'ct.crash', queue });
      const d = await until('the broker to dead-letter it', () => a.getDead(id), 20_000);
      expect(d.summary).toBe('delivery_limit');
      expect(d.reason).toContain(`x-death: count 1, queue ${queue}`);
      expect(d.diedAt).not.toBeNull();
      expect(d.payload.foreign).toBeNull();
      const r = await a.replayDead([id]);
      expect(r.succeeded.map((o) => o.id)).toEqual([id]);
      const msgs = await py.call<Array<{ id: string; body: string; headers: Record<string, unknown> }>>('messages', { queue });
      expect(msgs.map((m) => m.id)).toEqual([id]);
      expect(msgs[0]!.headers).toEqual({});
    } finally {
      await a.close();
      await py.call('cleanup').catch(() => undefined);
      await py.close();
    }
  });
});

describe.skipIf(!available)('rabbitmq 4: many queues', () => {
  it('counts from the management listing past exactCountsUpTo, the same numbers passive declares give, and says so', async () => {
    const tag = newTag();
    const [q1, q2] = [`mq1${tag}`, `mq2${tag}`];
    const py = spawnRabbitSeeder(RMQ4_URL, REDIS_URL, tag);
    const options = { managementUrl: RMQ4_MGMT, resultBackend: REDIS_URL, resultBackendOptions: { prefix: tag } };
    const exact = rabbitAdapter(RMQ4_URL, options);
    const listed = rabbitAdapter(RMQ4_URL, { ...options, exactCountsUpTo: 1 });
    const counts = async (a: typeof exact, q: string) => {
      const s = (await a.overview()).queues.find((x) => x.name === q);
      return s && { ready: countIn(s, 'ready'), dead: s.dead, consumers: s.consumers };
    };
    try {
      await py.call('enqueue_many', { items: [1, 2, 3].map((n) => ({ task: 'ct.t', queue: q1, args: [n] })) });
      await py.call('enqueue', { task: 'ct.t', queue: q2, args: [4] });
      for (const n of [1, 2]) await py.call('dead_letter', { task: 'ct.f', queue: q1, reason: `boom ${n}`, args: [n] });
      // The listing's statistics are sampled every 5 s: wait until it has caught up.
      await until('the management API to show 3 ready', async () => (await mgmtQueue(RMQ4_MGMT, q1))?.ready === 3, 20_000);
      await until('the listing to count both letters', async () => (await counts(listed, q1))?.dead === 2, 20_000);
      expect(await counts(exact, q1)).toEqual({ ready: 3, dead: 2, consumers: 0 });
      expect(await counts(listed, q1)).toEqual({ ready: 3, dead: 2, consumers: 0 });
      expect(await counts(exact, q2)).toEqual(await counts(listed, q2));
      expect((await listed.overview()).warnings?.join(' ')).toMatch(
        /more than 1 \(exactCountsUpTo\): ready and dead counts are the management API's/,
      );
      expect((await exact.overview()).warnings ?? []).toEqual([]);
    } finally {
      await Promise.all([exact.close(), listed.close()]);
      await py.call('cleanup').catch(() => undefined);
      await py.close();
    }
  });
});

describe.skipIf(!available)('rabbitmq 4: a DLQ deleted while it is read', () => {
  it('reads as empty instead of failing the whole dead-letter list', async () => {
    const ghost = `gone${newTag()}`;
    const a = rabbitAdapter(RMQ4_URL, { managementUrl: RMQ4_MGMT, resultBackend: REDIS_URL });
    // The DLQ existed when it was checked and is gone when it is browsed: RabbitMQ answers the
    // browse's basic.get with a real 404.
    const check = vi
      .spyOn(AmqpLink.prototype, 'checkMany')
      .mockResolvedValueOnce(new Map([[`${ghost}.dlq`, { messages: 1, consumers: 0 }]]));
    try {
      expect(await a.listDead({ queue: ghost, task: undefined, id: undefined, q: undefined, limit: 10 })).toEqual({
        items: [],
        nextCursor: null,
      });
      expect(check).toHaveBeenCalledOnce();
    } finally {
      check.mockRestore();
      await a.close();
    }
  });
});

describe.skipIf(!available)('rabbitmq 4: paced redrive', () => {
  it('paces, reports progress, pauses and cancels, leaving the letters not reached in the DLQ', async () => {
    const tag = newTag();
    const queue = `pr${tag}`;
    const py = spawnRabbitSeeder(RMQ4_URL, REDIS_URL, tag);
    const a = rabbitAdapter(RMQ4_URL, { managementUrl: RMQ4_MGMT, resultBackend: REDIS_URL, resultBackendOptions: { prefix: tag } });
    try {
      const ids = await py.call<string[]>('dead_letter_bulk', { queue, n: 30 });
      const abort = new AbortController();
      const seen: number[] = [];
      let paused = 0;
      const t0 = Date.now();
      const r = await a.replayDeadPaced(ids, {
        queue,
        rate: 20,
        signal: abort.signal,
        gate: async () => {
          if (seen.length === 5 && paused === 0) {
            paused = Date.now();
            await new Promise((res) => setTimeout(res, 500));
          }
        },
        onProgress: (done, total) => {
          seen.push(done);
          expect(total).toBe(30);
          if (done === 10) abort.abort();
        },
      });
      expect(Date.now() - t0).toBeGreaterThanOrEqual(9 * 50 + 500 - 50);
      expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(r.succeeded).toHaveLength(10);
      expect(r.failed).toHaveLength(20);
      expect(r.failed.every((o) => o.outcome === 'error' && o.message.includes('cancelled'))).toBe(true);
      const inQueue = (await py.call<Array<{ id: string }>>('messages', { queue })).map((m) => m.id);
      const inDlq = (await py.call<Array<{ id: string }>>('messages', { queue: `${queue}.dlq` })).map((m) => m.id);
      expect(inQueue.sort()).toEqual(r.succeeded.map((o) => o.id).sort());
      expect(inDlq.sort()).toEqual(r.failed.map((o) => o.id).sort());
    } finally {
      await a.close();
      await py.call('cleanup').catch(() => undefined);
      await py.close();
    }
  });
});
