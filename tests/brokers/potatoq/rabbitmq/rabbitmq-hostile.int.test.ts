// What an AMQP peer can do to the console's connection, over real sockets in front of the real
// RabbitMQ: a frame that is not AMQP in the middle of a session (a protocol error), a reply cut
// short, a "server" that answers the protocol header with HTTP. Each call fails as a typed
// console error, nothing escapes to the process, another broker on its own connection keeps
// answering, and the next call after the fault opens a new connection.
// int-lane: owns rabbitmq (RabbitMQ as a whole, conservatively)
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { escapedDuring, HostileProxy, hostileServer, brokerFailure as failure } from '@/tests/support/hostile';
import { rabbitAdapter, rabbitVersion, RMQ3_URL } from '@/tests/support/rabbitmq';

const up = (await rabbitVersion(RMQ3_URL, 'RabbitMQ 3.x (system)')) !== null;
const target = new URL(RMQ3_URL);
const adapters: BrokerAdapter[] = [];
const make = (url: string, options: Record<string, unknown> = {}) => {
  const a = rabbitAdapter(url, { timeoutMs: 5000, ...options });
  adapters.push(a);
  return a;
};

describe.skipIf(!up)('RabbitMQ: a hostile AMQP peer', () => {
  let proxy: HostileProxy;
  beforeAll(async () => {
    proxy = new HostileProxy(Number(target.port || 5672), target.hostname);
    await proxy.start();
  });
  afterEach(() => {
    proxy.fault = { kind: 'pass' };
  });
  afterAll(async () => {
    await Promise.all(adapters.splice(0).map((a) => a.close()));
    await proxy.stop();
  });
  const via = () => {
    const u = new URL(RMQ3_URL);
    u.hostname = '127.0.0.1';
    u.port = String(proxy.port);
    return u.toString();
  };

  for (const [name, fault] of [
    ['a frame that is not AMQP (a protocol error)', { kind: 'reply', bytes: Buffer.from('\x01\x00\x00\xff\xff\xff\xffgarbage') }],
    ['a reply cut short', { kind: 'cut', bytes: 5 }],
  ] as const) {
    it(`${name} mid-session fails the call; nothing escapes; another broker and the next call answer`, async () => {
      const a = make(via());
      const other = make(RMQ3_URL);
      expect((await a.overview()).queues).toEqual(expect.any(Array));
      const escaped = await escapedDuring(async () => {
        proxy.fault = fault;
        const e = await failure(a.overview());
        expect(e.message).not.toContain(target.password || '\u0000');
        expect((await other.overview()).queues).toEqual(expect.any(Array));
      });
      expect(escaped).toEqual([]);
      proxy.fault = { kind: 'pass' };
      expect((await a.overview()).queues).toEqual(expect.any(Array));
    });
  }

  it('a server that answers the protocol header with HTTP fails the call, and nothing escapes', async () => {
    const peer = await hostileServer(Buffer.from('HTTP/1.1 400 Bad Request\r\ncontent-type: text/html\r\n\r\n<html>no</html>'), true);
    try {
      const u = new URL(RMQ3_URL);
      u.port = String(peer.port);
      u.hostname = '127.0.0.1';
      const a = make(u.toString());
      const escaped = await escapedDuring(async () => {
        await failure(a.overview());
      });
      expect(escaped).toEqual([]);
    } finally {
      await peer.stop();
    }
  });

  for (const [name, reply] of [
    ['an HTML page', 'HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: 27\r\n\r\n<html><h1>login</h1></html>'],
    ['a body cut short', 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 4096\r\n\r\n{"rabbitmq_version":'],
  ] as const) {
    it(`a management API that answers ${name} is a typed error saying so, without the markup, and nothing escapes`, async () => {
      const peer = await hostileServer(Buffer.from(reply), true);
      try {
        const a = make(RMQ3_URL, { managementUrl: `http://127.0.0.1:${peer.port}` });
        const escaped = await escapedDuring(async () => {
          const e = await failure(a.overview());
          expect(e.message).toMatch(/management API (answered with something that is not JSON|broke off its answer)/);
          expect(e.message).not.toContain('<');
        });
        expect(escaped).toEqual([]);
      } finally {
        await peer.stop();
      }
    });
  }
});
