// The dead-letter list's read of a DLQ (readDlq) on a real RabbitMQ 4.3: a consumer takes the
// letters instead of one basic.get per letter, and every letter goes back in its place.
// int-lane: owns rabbitmq; uses redis/0 (RabbitMQ as a whole, conservatively; results under a per-run prefix)
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import amqp from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AmqpLink, CHECK_LANES } from '@/lib/transports/amqp/connection';
import { dlqBrowsesStarted } from '@/lib/transports/amqp/dlq-read';
import { withDlqLock } from '@/lib/transports/amqp/browse-lock';
import { readDlq } from '@/lib/brokers/potatoq/rabbitmq/dlq';
import { parseAmqpUrl } from '@/lib/transports/amqp/url';
import { ROOT } from '@/tests/support/potatoq-seeder';
import { newTag, rabbitAdapter, rabbitVersion, redisAvailable, REDIS_URL, RMQ4_URL, spawnRabbitSeeder } from '@/tests/support/rabbitmq';
import { ZDeadListQuery } from '@/lib/brokers/schema';
import { peekIds, seedDlq } from '@/tests/support/rabbit-dlq-seed';
import type { PySeeder } from '@/tests/support/potatoq-seeder';

execFileSync('bash', [path.join(ROOT, 'scripts/ensure-venv.sh')], { stdio: 'inherit' });
const available = (await rabbitVersion(RMQ4_URL, 'RabbitMQ 4.x', (m) => m >= 4)) && (await redisAvailable());

describe.skipIf(!available)('RabbitMQ 4: reading a DLQ for the dead-letter list', () => {
  const queue = `rd${newTag()}`;
  let py: PySeeder;
  let link: AmqpLink;
  let ids: string[] = [];
  beforeAll(async () => {
    py = spawnRabbitSeeder(RMQ4_URL, REDIS_URL, queue);
    await py.call('dead_letter_bulk', { queue, n: 0 }); // declares the queue and its DLQ potatoq's way
    ids = await seedDlq(RMQ4_URL, queue, 300);
    link = new AmqpLink(parseAmqpUrl(RMQ4_URL), 10_000);
  }, 60_000);
  afterAll(async () => {
    await link?.close();
    await py?.call('cleanup').catch(() => undefined);
    await py?.close();
  });
  const id = (m: amqp.ConsumeMessage) => String(m.properties.messageId);
  const timesAcquired = (m: amqp.ConsumeMessage) =>
    Number((m.properties.headers as Record<string, unknown> | undefined)?.['x-acquired-count']);

  it('reads every letter in DLQ order and leaves them all there, in the same order', async () => {
    expect(await readDlq(link, 'test', queue, 10_000, id)).toEqual(ids);
    expect(await peekIds(RMQ4_URL, `${queue}.dlq`)).toEqual(ids);
  });

  it('stops at the limit and leaves every letter in the DLQ', async () => {
    const order = await readDlq(link, 'test', queue, 10_000, id); // as it stands (peekIds' nackAll may have reordered it)
    expect(await readDlq(link, 'test', queue, 100, id)).toEqual(order.slice(0, 100));
    // RabbitMQ 4.3 puts requeued letters behind the ones nobody held (the get-and-nack browse it
    // replaces does the same): a partial read moves what it read to the DLQ's end, none is lost.
    expect((await peekIds(RMQ4_URL, `${queue}.dlq`)).sort()).toEqual([...ids].sort());
  });

  it('RabbitMQ 4.3 puts requeued letters behind the others: a partial read moves what it read to the end', async () => {
    // A broker fact the docs rely on (docs/brokers/rabbitmq.md, performance.md): if it changes,
    // those statements and the redrive's reasoning about returned letters change with it.
    const order = await readDlq(link, 'test', queue, 10_000, id);
    expect(await readDlq(link, 'test', queue, 3, id)).toEqual(order.slice(0, 3));
    expect(await readDlq(link, 'test', queue, 10_000, id)).toEqual([...order.slice(3), ...order.slice(0, 3)]);
  });

  it('reads the letters nobody else holds, without waiting for the ones another client has taken', async () => {
    // Another client (as `potatoq dead retry` while it looks) holds 50 letters unacked.
    const other = await amqp.connect(RMQ4_URL);
    try {
      const ch = await other.createChannel();
      const taken: amqp.GetMessage[] = [];
      for (
        let m = await ch.get(`${queue}.dlq`);
        m !== false && taken.length < 50;
        m = taken.length < 50 ? await ch.get(`${queue}.dlq`) : false
      )
        taken.push(m);
      expect(taken).toHaveLength(50);
      const t0 = Date.now();
      const got = await readDlq(link, 'test', queue, 10_000, id);
      expect(Date.now() - t0).toBeLessThan(5000); // no waiting for the letters another client holds
      const takenIds = taken.map((m) => String(m.properties.messageId));
      expect(got.sort()).toEqual(ids.filter((x) => !takenIds.includes(x)).sort());
      ch.nackAll(true);
      await ch.close();
    } finally {
      await other.close();
    }
    expect((await peekIds(RMQ4_URL, `${queue}.dlq`)).sort()).toEqual([...ids].sort());
  }, 30_000);

  it('overlapping reads share a browse, and a read never gets letters browsed before it asked', async () => {
    const order = await readDlq(link, 'test', queue, 10_000, id);
    // Three reads asked while the DLQ's lock is held elsewhere (a redrive, another page's read):
    // one browse, started after all three asked, serves them all, each with its own mapping.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const holder = withDlqLock(link, `${queue}.dlq`, async () => (locked(), await held));
    await isLocked;
    const before = dlqBrowsesStarted();
    const reads = Promise.all([
      readDlq(link, 'test', queue, 10_000, id),
      readDlq(link, 'test', queue, 10_000, timesAcquired),
      readDlq(link, 'test', queue, 10_000, id),
    ]);
    await new Promise((r) => setTimeout(r, 100));
    expect(dlqBrowsesStarted()).toBe(before); // nothing browses while the lock is held
    release();
    await holder;
    const [a, acquired, c] = await reads;
    expect(dlqBrowsesStarted()).toBe(before + 1);
    expect(a).toEqual(order);
    expect(c).toEqual(order);
    // The broker agrees: RabbitMQ counts each letter's acquisitions, and the next read finds
    // one more, not three.
    expect(acquired).toHaveLength(order.length);
    expect(acquired.every((n) => Number.isInteger(n) && n > 0)).toBe(true);
    expect(await readDlq(link, 'test', queue, 10_000, timesAcquired)).toEqual(acquired.map((n) => n + 1));
    expect(dlqBrowsesStarted()).toBe(before + 2);

    // A read asked once a browse has started waits for the next one, which later reads join.
    const first = readDlq(link, 'test', queue, 10_000, id);
    for (let i = 0; i < 200 && dlqBrowsesStarted() === before + 2; i++) await new Promise((r) => setTimeout(r, 1));
    expect(dlqBrowsesStarted()).toBe(before + 3);
    const later = [readDlq(link, 'test', queue, 10_000, id), readDlq(link, 'test', queue, 10_000, id)];
    expect(await first).toEqual(order);
    for (const r of await Promise.all(later)) expect(r).toEqual(order);
    expect(dlqBrowsesStarted()).toBe(before + 4);
    // A different limit is a different read.
    expect(await readDlq(link, 'test', queue, 5, id)).toEqual(order.slice(0, 5));
    expect(dlqBrowsesStarted()).toBe(before + 5);
    expect((await peekIds(RMQ4_URL, `${queue}.dlq`)).sort()).toEqual([...ids].sort());
  }, 30_000);

  it('a list of a DLQ deeper than deadBrowseLimit says what it covers; one that fits says nothing', async () => {
    const deep = rabbitAdapter(RMQ4_URL, { queues: [queue], deadBrowseLimit: 40 });
    const whole = rabbitAdapter(RMQ4_URL, { queues: [queue], deadBrowseLimit: 10_000 });
    try {
      const order = await readDlq(link, 'test', queue, 10_000, id);
      const page = await deep.listDead(ZDeadListQuery.parse({ limit: 100 }));
      expect(page.items).toHaveLength(40);
      expect(page.window).toBe(
        `${queue}.dlq holds 300 letters: a read takes the first 40 letters of a DLQ in queue order (deadBrowseLimit), so this list is the newest of those, not of all. ` +
          'RabbitMQ 4 puts the letters a read took behind the others, so the next refresh reads the next 40. Replay all… walks every letter of the DLQ.',
      );
      expect(page.items.map((d) => d.id).sort()).toEqual(order.slice(0, 40).sort());
      // What the note says about the next refresh.
      const next = await deep.listDead(ZDeadListQuery.parse({ limit: 100 }));
      expect(next.items.map((d) => d.id).sort()).toEqual(order.slice(40, 80).sort());
      // The trend chart counts what one read took, and says how many.
      const day = { fromMs: 0, bucketMs: 86_400_000 * 365 * 100, buckets: 1 };
      expect((await deep.deadHistogram!(day)).scannedNewest).toBe(40);
      expect((await whole.deadHistogram!(day)).scannedNewest).toBeNull();
      const all = await whole.listDead(ZDeadListQuery.parse({ limit: 500 }));
      expect(all.items).toHaveLength(300);
      expect(all.window).toBeUndefined();
    } finally {
      await deep.close();
      await whole.close();
    }
    expect((await peekIds(RMQ4_URL, `${queue}.dlq`)).sort()).toEqual([...ids].sort());
  }, 30_000);

  it('checks many queues over parallel channels: each count as its own passive declare gives, missing ones as null', async () => {
    // Missing queues between existing ones: each 404 closes its lane's channel, which opens another.
    const names = Array.from({ length: 3 * CHECK_LANES + 5 }, (_, i) =>
      i % 3 === 1 ? `${queue}.nope${i}` : i % 3 ? `${queue}.dlq` : queue,
    );
    const many = await link.checkMany(names);
    expect([...many.keys()].sort()).toEqual([...new Set(names)].sort());
    for (const n of new Set(names)) expect(many.get(n) ?? null).toEqual(await link.checkQueue(n));
    expect(many.get(`${queue}.dlq`)?.messages).toBe(300);
    expect(await link.checkMany([])).toEqual(new Map());
  });

  it('the error groups of a DLQ deeper than deadBrowseLimit say what they count and that the next refresh counts others', async () => {
    const deep = rabbitAdapter(RMQ4_URL, { queues: [queue], deadBrowseLimit: 40 });
    const whole = rabbitAdapter(RMQ4_URL, { queues: [queue], deadBrowseLimit: 10_000 });
    try {
      const order = await readDlq(link, 'test', queue, 10_000, id);
      const first = await deep.deadGroups({ queue });
      expect(first.scope).toEqual({
        grouped: 40,
        complete: false,
        note:
          `${queue}.dlq holds 300 letters: a read takes the first 40 letters of a DLQ in queue order (deadBrowseLimit), so these groups count those, not all. ` +
          'RabbitMQ 4 puts the letters a read took behind the others, so the next refresh groups the next 40: two views can count different letters.',
      });
      expect(first.groups.reduce((n, g) => n + g.count, 0)).toBe(40);
      expect(order.slice(0, 40)).toContain(first.groups[0]!.example.id);
      // What the words say: the next read groups the next 40 letters.
      const next = await deep.deadGroups({ queue });
      expect(next.scope.grouped).toBe(40);
      expect(order.slice(40, 80)).toContain(next.groups[0]!.example.id);
      const all = await whole.deadGroups({ queue });
      expect(all.scope).toEqual({ grouped: 300, complete: true });
    } finally {
      await deep.close();
      await whole.close();
    }
    expect((await peekIds(RMQ4_URL, `${queue}.dlq`)).sort()).toEqual([...ids].sort());
  }, 30_000);
});
