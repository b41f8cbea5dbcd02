// The browse lock of a DLQ on real RabbitMQ 3.10 and 4.3: the console's own browses (any
// connection of this process) are waited for, never refused; another console process is refused
// at once, by name and since when (the lock queue's arguments, read through the management API);
// its lock goes with its connection.
// int-lane: owns rabbitmq; uses redis/0 (reads lock holders through the management API; results under a per-run prefix)
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import amqp from 'amqplib';
import { afterAll, describe, expect, it } from 'vitest';
import { isConsoleError } from '@/lib/brokers/errors';
import { ZDeadListQuery } from '@/lib/brokers/schema';
import { ROOT } from '@/tests/support/potatoq-seeder';
import {
  newTag,
  rabbitAdapter,
  rabbitVersion,
  redisAvailable,
  REDIS_URL,
  RMQ3_MGMT,
  RMQ3_URL,
  RMQ4_MGMT,
  RMQ4_URL,
  spawnRabbitSeeder,
} from '@/tests/support/rabbitmq';
import { peekIds, seedDlq } from '@/tests/support/rabbit-dlq-seed';
import { AmqpLink } from '@/lib/transports/amqp/connection';
import { browseLockQueue, withDlqLock } from '@/lib/transports/amqp/browse-lock';
import { HOLDER_ARG, SINCE_ARG, THIS_CONSOLE } from '@/lib/transports/amqp/lock-holder';
import { Management } from '@/lib/transports/amqp/management';
import { parseAmqpUrl, parseManagement } from '@/lib/transports/amqp/url';

execFileSync('bash', [path.join(ROOT, 'scripts/ensure-venv.sh')], { stdio: 'inherit' });
const v3 = await rabbitVersion(RMQ3_URL, 'RabbitMQ 3.x', (m) => m === 3);
const v4 = (await rabbitVersion(RMQ4_URL, 'RabbitMQ 4.x', (m) => m >= 4)) && (await redisAvailable());
/** The same server, its host spelled another way: another broker entry of this console. */
const otherSpelling = (url: string) => url.replace('127.0.0.1', 'localhost');

const links: AmqpLink[] = [];
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await Promise.all(links.map((l) => l.close()));
});

function linkTo(url: string, managementUrl: string): AmqpLink {
  const target = parseAmqpUrl(url);
  const mgmt = new Management(parseManagement({ managementUrl }, target)!, 10_000);
  const link = new AmqpLink(target, 10_000, (q) => mgmt.lockHolder(target.vhost, q));
  links.push(link);
  return link;
}

/** Another console process holding `dlq`'s lock (tests/rabbitmq/browse-lock-child.ts), once it says so. */
async function otherConsole(url: string, managementUrl: string, dlq: string): Promise<ChildProcess> {
  const child = spawn(
    path.join(ROOT, 'node_modules/.bin/vite-node'),
    ['--config', 'vitest.config.ts', 'tests/rabbitmq/browse-lock-child.ts', url, managementUrl, dlq],
    { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  children.push(child);
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => ((out += d.toString()), out.includes('holding') && resolve()));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => reject(new Error(`the other console exited (${code}): ${out}`)));
  });
  return child;
}

const servers = [
  { label: 'RabbitMQ 3.10', url: RMQ3_URL, mgmt: RMQ3_MGMT, up: !!v3 },
  { label: 'RabbitMQ 4.3', url: RMQ4_URL, mgmt: RMQ4_MGMT, up: !!v4 },
];

for (const s of servers) {
  describe.skipIf(!s.up)(`${s.label}: the browse lock of a DLQ`, () => {
    it('waits for a browse of its own process on another connection, then takes the lock', async () => {
      const dlq = `bl${newTag()}.dlq`;
      const [one, two] = [linkTo(s.url, s.mgmt), linkTo(otherSpelling(s.url), s.mgmt)];
      const order: string[] = [];
      let release!: () => void;
      let held!: () => void;
      const holding = new Promise<void>((r) => (held = r));
      const first = withDlqLock(one, dlq, async () => {
        order.push('one in');
        held();
        await new Promise<void>((r) => (release = r));
        order.push('one out');
      });
      await holding;
      const second = withDlqLock(two, dlq, async () => void order.push('two in'));
      await new Promise((r) => setTimeout(r, 300)); // long enough for `two` to try
      release();
      await Promise.all([first, second]);
      expect(order).toEqual(['one in', 'one out', 'two in']);
    }, 30_000);

    it('waits for a lock its own process holds on a connection of its own, counting the waits, up to a bound', async () => {
      const dlq = `bl${newTag()}.dlq`;
      // This process's lock on a connection the console's waiters don't know (what a failed
      // delete leaves, or another module instance): the broker names this very process.
      const own = await amqp.connect(s.url);
      const ch = await own.createChannel();
      await ch.assertQueue(browseLockQueue(dlq), {
        exclusive: true,
        durable: false,
        autoDelete: false,
        arguments: { [HOLDER_ARG]: THIS_CONSOLE, [SINCE_ARG]: new Date().toISOString() },
      });
      const link = linkTo(s.url, s.mgmt);
      let waits = 0;
      const refused = await withDlqLock(link, dlq, async () => 'in', { ownWaitMs: 500, sleep: async () => void waits++ }).catch(
        (e: unknown) => e,
      );
      expect(isConsoleError(refused) && refused.message).toContain(`the console ${THIS_CONSOLE} has been browsing ${dlq} since`);
      expect(waits).toBe(2); // 500 ms of 250 ms polls, then refused
      waits = 0;
      const entered = await withDlqLock(link, dlq, async () => 'in', {
        sleep: async () => {
          if (++waits === 3) await own.close(); // its browse ends
          await new Promise((r) => setTimeout(r, 100));
        },
      });
      expect(entered).toBe('in');
      expect(waits).toBeGreaterThanOrEqual(3);
    }, 30_000);

    it('refuses at once while another console process holds it, naming it and since when; frees it with its connection', async () => {
      const dlq = `bl${newTag()}.dlq`;
      const child = await otherConsole(s.url, s.mgmt, dlq);
      const link = linkTo(s.url, s.mgmt);
      let entered = 0;
      const refused = await withDlqLock(link, dlq, async () => void entered++).then(
        () => null,
        (e: unknown) => e,
      );
      expect(entered).toBe(0);
      expect(isConsoleError(refused) && refused.code).toBe('Conflict');
      const message = (refused as Error).message;
      expect(message).toContain(`pid ${child.pid}`);
      expect(message).not.toContain(THIS_CONSOLE);
      expect(message).toMatch(new RegExp(`browsing ${dlq} since \\d{4}-\\d\\d-\\d\\dT`));
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      // RabbitMQ drops the lock with the dead process's connection (a moment after it notices).
      for (let i = 0; entered === 0; i++) {
        await withDlqLock(link, dlq, async () => void entered++).catch((e: unknown) => {
          if (i > 40 || !isConsoleError(e)) throw e;
          return new Promise((r) => setTimeout(r, 250));
        });
      }
      expect(await link.checkQueue(browseLockQueue(dlq))).toBeNull(); // deleted after use
    }, 60_000);
  });
}

describe.skipIf(!v4)('RabbitMQ 4.3: an operator’s action while the console itself reads the DLQ', () => {
  it('a bulk snapshot started during a background read of the same DLQ (another broker entry) waits for it', async () => {
    const tag = newTag();
    const queue = `bb${tag}`;
    const py = spawnRabbitSeeder(RMQ4_URL, REDIS_URL, tag);
    const options = { managementUrl: RMQ4_MGMT, queues: [queue] };
    // Two entries for the one vhost (its host spelled two ways): two connections of this process.
    const [reader, operator] = [rabbitAdapter(RMQ4_URL, options), rabbitAdapter(otherSpelling(RMQ4_URL), options)];
    try {
      await py.call('dead_letter_bulk', { queue, n: 0 });
      const ids = await seedDlq(RMQ4_URL, queue, 3000);
      // Both at once: whichever takes the DLQ first, the other waits for it.
      const read = reader.listDead(ZDeadListQuery.parse({ queue, limit: 50 }));
      const snapshot = await operator.deadIds!({ queue }, 10_000);
      expect(snapshot.ids.sort()).toEqual([...ids].sort());
      expect((await read).items).toHaveLength(50);
      expect((await peekIds(RMQ4_URL, `${queue}.dlq`)).sort()).toEqual([...ids].sort());
    } finally {
      await reader.close();
      await operator.close();
      await py.call('cleanup').catch(() => undefined);
      await py.close();
    }
  }, 120_000);
});
