// An HTTP gate in front of a real server that passes every request through and loses the replies
// to the ones `lose` picks: the server did the work, the client never hears so (a network that
// drops the answer). A test uses it to stop a console exactly between "sent" and "recorded as
// sent", where a kill otherwise lands only by chance.
import http from 'node:http';
import type net from 'node:net';

export interface LostReplies {
  url: string;
  /** Requests the server answered whose replies were dropped, so far. */
  lost: () => number;
  close: () => Promise<void>;
}

export async function lostReplies(target: string, lose: (req: http.IncomingMessage) => boolean): Promise<LostReplies> {
  const to = new URL(target);
  const sockets = new Set<net.Socket>();
  let lost = 0;
  const server = http.createServer((req, res) => {
    const up = http.request(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host } },
      (answer) => {
        if (!lose(req)) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        // Read to the end (the server finished), then say nothing: the client waits until it gives up.
        answer.resume();
        answer.on('end', () => lost++);
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    lost: () => lost,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
