// Faults on real servers. RabbitMQ 4.3 (scripts/services.sh, the sid chroot) is stopped and started again in
// the middle of a paced redrive: no letter may be lost, and duplicates only come from the
// documented window (a replay confirmed but its DLQ ack not processed). On the system's
// RabbitMQ 3.10.8, browsing is refused and potatoq's DLQ keeps every letter.
// int-lane: owns rabbitmq; uses redis/0 (stops and starts RabbitMQ 4.3; results under a per-run prefix)
import { execFile, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import amqp from 'amqplib';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, type PySeeder } from '@/tests/support/potatoq-seeder';
import { isConsoleError } from '@/lib/brokers/errors';
import { ZDeadListQuery } from '@/lib/brokers/schema';
import { V3_BROWSE_REFUSAL } from '@/lib/brokers/potatoq/rabbitmq/topology';
import {
  newTag,
  rabbitAdapter,
  rabbitVersion,
  redisAvailable,
  REDIS_URL,
  RMQ3_URL,
  RMQ4_MGMT,
  RMQ4_URL,
  spawnRabbitSeeder,
  until,
} from '@/tests/support/rabbitmq';
import { seedDlq } from '@/tests/support/rabbit-dlq-seed';
import { REDRIVE_WINDOW } from '@/lib/transports/amqp/dlq-walk';

execFileSync('bash', [path.join(ROOT, 'scripts/ensure-venv.sh')], { stdio: 'inherit' });
const redis = await redisAvailable();
const v4 = redis && (await rabbitVersion(RMQ4_URL, 'RabbitMQ 4.x', (m) => m >= 4));
const v3 = redis && (await rabbitVersion(RMQ3_URL, 'RabbitMQ 3.x (system)', (m) => m === 3));

async function readyCount(url: string, queue: string): Promise<number> {
  const c = await amqp.connect(url);
  try {
    const ch = await c.createChannel();
    return (await ch.checkQueue(queue)).messageCount;
  } finally {
    await c.close();
  }
}

/** How many copies of each message id a queue holds. */
const copies = (xs: string[]) => xs.reduce((m, x) => m.set(x, (m.get(x) ?? 0) + 1), new Map<string, number>());
const idsIn = async (py: PySeeder, queue: string) => (await py.call<Array<{ id: string }>>('messages', { queue })).map((m) => m.id);

/** Where each redriven letter ended up: its queue, its DLQ, neither (lost) or both (duplicate). */
async function census(py: PySeeder, queue: string, ids: string[]) {
  const q = copies(await idsIn(py, queue));
  const d = copies(await idsIn(py, `${queue}.dlq`));
  return { q, d, lost: ids.filter((id) => !q.has(id) && !d.has(id)), both: ids.filter((id) => q.has(id) && d.has(id)) };
}

const rabbit4 = (cmd: 'stop' | 'start') =>
  execFileSync('bash', [path.join(ROOT, 'scripts/services.sh'), cmd === 'stop' ? 'down' : 'up', 'rabbitmq4'], {
    stdio: 'pipe',
    timeout: 180_000,
  });
/** Stops the broker without blocking the event loop: the redrive keeps going while it shuts down. */
const stopRabbit4 = () =>
  new Promise<void>((resolve, reject) =>
    execFile('bash', [path.join(ROOT, 'scripts/services.sh'), 'down', 'rabbitmq4'], { timeout: 180_000 }, (e) =>
      e ? reject(e) : resolve(),
    ),
  );

describe.skipIf(!v3)('RabbitMQ 3.10: dead letters are never browsed', () => {
  it('refuses to browse, replay or discard with the reason, and the DLQ keeps all its letters', async () => {
    const tag = newTag();
    const queue = `f3${tag}`;
    const py = spawnRabbitSeeder(RMQ3_URL, REDIS_URL, tag);
    const a = rabbitAdapter(RMQ3_URL, { queues: [queue], resultBackend: REDIS_URL, resultBackendOptions: { prefix: tag } });
    try {
      const ids = await py.call<string[]>('dead_letter_bulk', { queue, n: 5 });
      expect(await readyCount(RMQ3_URL, `${queue}.dlq`)).toBe(5);
      const caps = await a.capabilities();
      for (const k of ['browseDead', 'replay', 'discard'] as const) expect(caps[k]).toEqual({ on: false, why: V3_BROWSE_REFUSAL });
      expect(caps.revoke.on).toBe(true);
      const attempts = [
        a.listDead(ZDeadListQuery.parse({ queue })),
        a.deadGroups({ queue }),
        a.getDead(ids[0]!),
        a.replayDead(ids),
        a.discardDead(ids),
        a.convertCelery(ids),
      ];
      for (const r of await Promise.allSettled(attempts)) {
        expect(r.status).toBe('rejected');
        const e = (r as PromiseRejectedResult).reason as unknown;
        expect(isConsoleError(e) && [e.code, e.message]).toEqual(['Unsupported', V3_BROWSE_REFUSAL]);
      }
      const ov = await a.overview();
      expect(ov.serverInfo).toMatch(/^RabbitMQ 3\./);
      expect(ov.queues.find((q) => q.name === queue)).toMatchObject({ dead: 5, counts: { ready: 0, running: null, scheduled: null } });
      await a.taskNames();
      expect(await readyCount(RMQ3_URL, `${queue}.dlq`)).toBe(5);
    } finally {
      await a.close();
      await py.call('cleanup').catch(() => undefined);
      await py.close();
    }
  }, 60_000);
});

describe.skipIf(!v4)('RabbitMQ 4.3 restarted in the middle of a redrive', () => {
  afterAll(() => {
    rabbit4('start'); // idempotent: leaves the broker running for whatever runs next
  }, 200_000);

  it('loses no letter: each ends up in its queue or still in the DLQ, duplicates only from the confirm-to-ack window', async () => {
    const N = 1500;
    const tag = newTag();
    const queue = `f4${tag}`;
    let py = spawnRabbitSeeder(RMQ4_URL, REDIS_URL, tag);
    const a = rabbitAdapter(RMQ4_URL, { managementUrl: RMQ4_MGMT, resultBackend: REDIS_URL, resultBackendOptions: { prefix: tag } });
    try {
      const ids = await py.call<string[]>('dead_letter_bulk', { queue, n: N });
      expect(await readyCount(RMQ4_URL, `${queue}.dlq`)).toBe(N);
      let progressed = 0;
      let stopping: Promise<void> | null = null;
      const first = await a.replayDeadPaced(ids, {
        queue,
        rate: 500,
        onProgress: (done) => {
          progressed = done;
          if (done === 300 && !stopping) stopping = stopRabbit4();
        },
      });
      await stopping;
      const ok1 = new Set(first.succeeded.map((o) => o.id));
      expect(ok1.size).toBeGreaterThanOrEqual(300);
      expect(ok1.size).toBeLessThan(N);
      expect(first.failed.every((o) => o.outcome === 'error')).toBe(true);
      rabbit4('start');
      await py.close().catch(() => undefined);
      py = spawnRabbitSeeder(RMQ4_URL, REDIS_URL, tag);
      await py.call('track', { queue });

      const { q: q1, d: d1, lost, both } = await census(py, queue, ids);
      console.info(
        `redrive interrupted after ${progressed}/${N}: ${ok1.size} confirmed, ${q1.size} in the queue, ${d1.size} in the DLQ, ${both.length} in both`,
      );
      expect(lost).toEqual([]);
      expect([...q1.values(), ...d1.values()].every((n) => n === 1)).toBe(true);
      for (const id of ok1) expect(q1.has(id)).toBe(true);
      // The only duplicates: letters whose replay was confirmed (or in flight) when the broker went away.
      expect(both.length).toBeLessThanOrEqual(2);

      // The same adapter reconnects and finishes the redrive.
      const rest = ids.filter((id) => d1.has(id) && !q1.has(id));
      const second = await until(
        'the broker to accept the redrive again',
        async () => {
          const r = await a.replayDeadPaced(rest, { queue });
          return r.failed.length === 0 ? r : null;
        },
        60_000,
      );
      expect(second.succeeded.length).toBe(rest.length);
      const final = copies(await idsIn(py, queue));
      expect(ids.filter((id) => !final.has(id))).toEqual([]);
      expect(await readyCount(RMQ4_URL, `${queue}.dlq`)).toBe(both.length);
    } finally {
      rabbit4('start');
      await a.close();
      await py.call('cleanup').catch(() => undefined);
      await py.close();
    }
  }, 300_000);
});

describe.skipIf(!v4)('the console process killed in the middle of a redrive', () => {
  it.each([
    ['every letter', 1, '', ''],
    ['one letter in three, the rest held on many channels (prefetch 40)', 3, '40', ''],
    // As a bulk job runs it: unpaced, REDRIVE_WINDOW publishes in flight, the next channel opened ahead.
    ['unpaced, one letter in three on many channels (prefetch 200)', 3, '200', '0'],
  ])(
    'loses no letter: each ends up in its queue or back in the DLQ, duplicates only from the confirm-to-ack window (%s)',
    async (_what, every, prefetch, rate) => {
      const unpaced = rate === '0';
      const N = unpaced ? 6000 : 1200; // unpaced, 400 replays would be over before the kill
      const killAt = unpaced ? 100 : 250 / every;
      const tag = newTag();
      const queue = `fk${tag}`;
      const py = spawnRabbitSeeder(RMQ4_URL, REDIS_URL, tag);
      const idsFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pq-redrive-')), 'ids.json');
      try {
        const ids = unpaced
          ? (await py.call('dead_letter_bulk', { queue, n: 0 }), await seedDlq(RMQ4_URL, queue, N))
          : await py.call<string[]>('dead_letter_bulk', { queue, n: N });
        const want = ids.filter((_, i) => i % every === 0);
        fs.writeFileSync(idsFile, JSON.stringify(want));
        const child = spawn(
          path.join(ROOT, 'node_modules/.bin/vite-node'),
          ['--config', 'vitest.config.ts', 'tests/rabbitmq/redrive-child.ts', RMQ4_URL, queue, idsFile, prefetch || '0', rate],
          {
            cwd: ROOT,
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
        let out = '';
        child.stderr.on('data', (d: Buffer) => (out += d.toString()));
        const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
        // Killed without warning (no close, no nack) once a few hundred replays are confirmed.
        await new Promise<void>((resolve, reject) => {
          child.stdout.on('data', (d: Buffer) => {
            out += d.toString();
            const last = [...out.matchAll(/progress (\d+)/g)].pop();
            if (last && Number(last[1]) >= killAt) {
              child.kill('SIGKILL');
              resolve();
            }
          });
          child.on('exit', () => reject(new Error(`the redrive ended before it was killed:\n${out}`)));
        });
        expect(await exited).toBe('SIGKILL');
        // The broker returns the dead process's unacked letters to the DLQ; wait until it has.
        await until(
          'the DLQ and the queue to account for every letter',
          async () => {
            const total = (await readyCount(RMQ4_URL, queue)) + (await readyCount(RMQ4_URL, `${queue}.dlq`));
            return total >= N ? total : null;
          },
          30_000,
        );
        const { q, d, lost, both } = await census(py, queue, ids);
        console.info(`console killed mid-redrive: ${q.size} in the queue, ${d.size} back in the DLQ, ${both.length} in both`);
        expect(lost).toEqual([]);
        expect(q.size).toBeGreaterThanOrEqual(killAt);
        for (const id of q.keys()) expect(want).toContain(id); // only asked-for letters were replayed
        expect([...q.values(), ...d.values()].every((n) => n === 1)).toBe(true);
        // Only a replay published but not yet acked when the process died can be in both: one
        // paced (and the one being confirmed), at most the window unpaced (docs/bulk.md).
        expect(both.length).toBeLessThanOrEqual(unpaced ? REDRIVE_WINDOW : 2);
      } finally {
        await py.call('cleanup').catch(() => undefined);
        await py.close();
      }
    },
    180_000,
  );
});
