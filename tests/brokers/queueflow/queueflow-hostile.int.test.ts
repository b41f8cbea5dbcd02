// A QueueFlow URL that answers badly, over real HTTP on loopback: an HTML page (a proxy's error
// page, a login page) with 200 or 502, a body cut before its announced length, a connection
// closed without an answer. Each call fails as a typed console error saying what happened, and
// nothing escapes to the process.
import http from 'node:http';
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleError } from '@/lib/brokers/errors';
import { escapedDuring } from '@/tests/support/hostile';
import { createQueueflowAdapter } from '@/lib/brokers/queueflow/adapter';
import { adapterContext } from '@/lib/brokers/systems-context';

type Mode = 'html-200' | 'html-502' | 'truncated' | 'hang-up';
let mode: Mode = 'html-200';
const sockets = new Set<net.Socket>();
const server = http.createServer((req, res) => {
  req.resume();
  const html = '<!doctype html><html><body><h1>Sign in</h1></body></html>';
  if (mode === 'html-200' || mode === 'html-502') {
    res.writeHead(mode === 'html-200' ? 200 : 502, { 'content-type': 'text/html' });
    res.end(html);
  } else if (mode === 'truncated') {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' });
    res.write('{"items":[{"id":"a","queue":"q"');
    setTimeout(() => res.socket?.destroy(), 20);
  } else {
    req.socket.destroy();
  }
});
server.on('connection', (s) => {
  sockets.add(s);
  s.on('close', () => sockets.delete(s));
});
let url = '';
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((r) => server.close(() => r()));
});

describe('QueueFlow: a server that answers badly', () => {
  for (const [m, expected] of [
    ['html-200', /answered .* with something that is not JSON/],
    ['html-502', /answered 502/],
    ['truncated', /broke off its answer|not JSON/],
    ['hang-up', /cannot reach QueueFlow/],
  ] as const) {
    it(`${m}: the call fails as a typed error saying so, and nothing escapes`, async () => {
      mode = m;
      const a = createQueueflowAdapter(
        {
          id: 'qfh',
          name: 'QF',
          url,
          readOnly: false,
          options: { token: 'secret-token-1', timeoutMs: 5000 },
        },
        adapterContext(),
      );
      try {
        const escaped = await escapedDuring(async () => {
          // The overview, and the Workflows view's reads and retry.
          for (const call of [
            () => a.overview(),
            () => a.workflows!.list({ limit: 5 }),
            () => a.workflows!.get('00000000-0000-4000-8000-000000000000'),
            () => a.workflows!.retry('00000000-0000-4000-8000-000000000000'),
          ]) {
            const e = await call().then(
              () => expect.fail('the call succeeded'),
              (x: unknown) => x,
            );
            expect(e).toBeInstanceOf(ConsoleError);
            expect(['BrokerUnavailable', 'BrokerTimeout']).toContain((e as ConsoleError).code);
            expect((e as ConsoleError).message).toMatch(expected);
            expect((e as ConsoleError).message).not.toContain('secret-token-1');
            expect((e as ConsoleError).message).not.toContain('<html>');
          }
        });
        expect(escaped).toEqual([]);
      } finally {
        await a.close();
      }
    });
  }
});
