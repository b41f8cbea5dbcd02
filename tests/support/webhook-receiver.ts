// A real HTTP receiver for the alert webhook (the component a webhook talks to): records every
// request and answers the statuses it is told, in turn (the last one repeats).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: Record<string, unknown>;
  status: number;
}

export interface WebhookReceiver {
  url: string;
  received: Received[];
  answer(statuses: number[]): void;
  /** Resolves once `n` requests arrived (rejects after `ms`). */
  waitFor(n: number, ms?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(path = '/hooks/T000/B000/secret-path-abc123'): Promise<WebhookReceiver> {
  const received: Received[] = [];
  let statuses = [200];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      const status = statuses.length > 1 ? statuses.shift()! : statuses[0]!;
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        // Recorded as sent.
      }
      received.push({ path: req.url ?? '', headers: req.headers, raw, body, status });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'unavailable');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    answer: (s) => void (statuses = [...s]),
    async waitFor(n, ms = 20_000) {
      const end = Date.now() + ms;
      while (received.length < n) {
        if (Date.now() > end) throw new Error(`the receiver got ${received.length} of ${n} requests in ${ms} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return received;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
