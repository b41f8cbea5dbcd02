// A TCP endpoint that accepts connections and never answers (a hung broker: the kernel says yes,
// the server says nothing) until `open()`, after which every connection, the held ones with what
// they already sent, is passed through to a real server: the same broker recovering.
import net from 'node:net';

export interface HangGate {
  port: number;
  /** Connections accepted so far. */
  accepted: () => number;
  /** From now on, pass every connection (held ones included) through to `target`. */
  open: () => void;
  close: () => Promise<void>;
}

export async function hangGate(target: { host: string; port: number }): Promise<HangGate> {
  const held = new Set<net.Socket>();
  const upstreams = new Set<net.Socket>();
  let passing = false;
  let accepted = 0;
  const pass = (s: net.Socket) => {
    const up = net.connect(target.port, target.host);
    upstreams.add(up);
    up.on('error', () => s.destroy());
    s.on('error', () => up.destroy());
    s.pipe(up).pipe(s);
    s.resume();
  };
  const server = net.createServer((s) => {
    accepted++;
    held.add(s);
    s.on('close', () => held.delete(s));
    // Paused: what the client sends waits in the socket, unread, unanswered.
    s.pause();
    if (passing) pass(s);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    accepted: () => accepted,
    open: () => {
      passing = true;
      for (const s of held) pass(s);
    },
    close: async () => {
      for (const s of [...held, ...upstreams]) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
