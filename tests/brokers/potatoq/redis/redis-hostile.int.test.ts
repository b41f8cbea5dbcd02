// What a Redis server (or what stands between it and the console) can do to the console's
// client, over real sockets: a TLS handshake refused with an alert, a fatal alert mid-session
// followed by a reset (the uncaught ERR_SSL_TLSV1_ALERT_DECODE_ERROR once seen in CI), a reply
// that is not RESP, a reply cut in the middle. Each call fails as a typed console error, nothing
// escapes to the process, and a broker on the same server but another connection keeps answering.
// int-lane: uses redis/0 (a key prefix of its own; its fake servers on free ports)
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { escapedDuring, HostileProxy, hostileServer, TLS_DECODE_ERROR_ALERT, brokerFailure as failure } from '@/tests/support/hostile';
import { newPrefix, REDIS_URL, redisAvailable, redisServerAvailable } from '@/tests/support/redis';
import { opensslAvailable, TlsRedis } from '@/tests/support/redis-tls';
import { createRedisAdapter } from '@/lib/brokers/potatoq/redis/adapter';

const tlsUp = redisServerAvailable('the Redis hostile-peer suite') && opensslAvailable('the Redis hostile-peer suite');
const plainUp = await redisAvailable();

const adapters: BrokerAdapter[] = [];
const prefix = newPrefix();
function make(url: string, options: Record<string, unknown> = {}): BrokerAdapter {
  const a = createRedisAdapter({
    id: 'faulty',
    name: 'Faulty',
    url,
    readOnly: false,
    options: { global_keyprefix: prefix, timeoutMs: 3000, ...options },
  });
  adapters.push(a);
  return a;
}
/** Closes the adapters made so far (before their servers stop, so none retries into nothing). */
const closeAll = () => Promise.all(adapters.splice(0).map((a) => a.close()));

describe.skipIf(!tlsUp)('Redis over TLS: a hostile peer', () => {
  const server = new TlsRedis();
  let proxy: HostileProxy;
  beforeAll(async () => {
    await server.start();
    proxy = new HostileProxy(server.port);
    await proxy.start();
  }, 60_000);
  afterEach(() => {
    proxy.fault = { kind: 'pass' };
  });
  afterAll(async () => {
    await closeAll();
    await proxy.stop();
    await server.stop();
  });
  const via = (port: number) => server.url().replace(`:${server.port}/`, `:${port}/`);

  it('a handshake answered with a fatal alert is BrokerUnavailable naming TLS, and nothing escapes', async () => {
    const peer = await hostileServer(TLS_DECODE_ERROR_ALERT, true);
    try {
      const a = make(via(peer.port), { tlsCaFile: server.caFile });
      const escaped = await escapedDuring(async () => {
        const e = await failure(a.overview());
        expect(e.message).toMatch(/TLS connection failed: .*alert decode error/);
        expect(e.message).not.toContain(server.password);
      });
      expect(escaped).toEqual([]);
    } finally {
      await peer.stop();
    }
  });

  it('a fatal alert mid-session and then a reset fail the call; nothing escapes; the next call after the fault answers', async () => {
    const a = make(via(proxy.port), { tlsCaFile: server.caFile });
    const other = make(server.url(), { tlsCaFile: server.caFile });
    expect((await a.overview()).queues).toEqual(expect.any(Array));
    const escaped = await escapedDuring(async () => {
      proxy.fault = { kind: 'alert-then-reset' };
      await failure(a.overview());
      // Another broker on the same server, over its own connection, keeps answering meanwhile.
      expect((await other.overview()).queues).toEqual(expect.any(Array));
    });
    expect(escaped).toEqual([]);
    proxy.fault = { kind: 'pass' };
    expect((await a.overview()).queues).toEqual(expect.any(Array));
  });

  it('a reply cut in the middle fails the call, and nothing escapes', async () => {
    const a = make(via(proxy.port), { tlsCaFile: server.caFile });
    expect((await a.overview()).queues).toEqual(expect.any(Array));
    const escaped = await escapedDuring(async () => {
      proxy.fault = { kind: 'cut', bytes: 40 };
      await failure(a.overview());
    });
    expect(escaped).toEqual([]);
  });
});

describe.skipIf(!plainUp)('Redis: a reply that is not RESP, a reply cut short', () => {
  const url = new URL(REDIS_URL);
  let proxy: HostileProxy;
  beforeAll(async () => {
    proxy = new HostileProxy(Number(url.port || 6379), url.hostname);
    await proxy.start();
  });
  afterEach(() => {
    proxy.fault = { kind: 'pass' };
  });
  afterAll(async () => {
    await closeAll();
    await proxy.stop();
  });
  const via = () => `redis://127.0.0.1:${proxy.port}${url.pathname}`;

  for (const [name, bytes] of [
    ['an HTML page', Buffer.from('HTTP/1.1 200 OK\r\ncontent-type: text/html\r\n\r\n<html>hello</html>')],
    ['a RESP protocol error (an unknown type byte)', Buffer.from('!!garbage\r\n')],
  ] as const) {
    it(`${name} in place of the reply fails the call as a console error, and nothing escapes`, async () => {
      const a = make(via());
      expect((await a.overview()).queues).toEqual(expect.any(Array));
      const direct = make(REDIS_URL);
      const escaped = await escapedDuring(async () => {
        proxy.fault = { kind: 'reply', bytes };
        await failure(a.overview());
        expect((await direct.overview()).queues).toEqual(expect.any(Array));
      });
      proxy.fault = { kind: 'pass' };
      expect(escaped).toEqual([]);
    });
  }

  it('a server that closes mid-reply fails the call, and nothing escapes', async () => {
    const a = make(via());
    expect((await a.overview()).queues).toEqual(expect.any(Array));
    const escaped = await escapedDuring(async () => {
      proxy.fault = { kind: 'cut', bytes: 25 };
      await failure(a.overview());
    });
    expect(escaped).toEqual([]);
  });
});
