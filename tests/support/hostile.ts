// What a broker (or something in front of it) can do to a client, over real loopback sockets, for
// the fault tests (not shipped code). A `HostileProxy` forwards bytes between the client and a
// real server until told to misbehave on the next request: answer with bytes of its own, cut
// the reply after a few bytes, or inject a fatal TLS alert record and then reset the
// connection. A `hostileServer` answers every connection with fixed bytes (a protocol the client
// does not expect), or closes it.
import net from 'node:net';
import { expect } from 'vitest';
import { ConsoleError } from '@/lib/brokers/errors';

/** A TLS 1.2 record carrying the fatal alert decode_error (50), in the clear. */
export const TLS_DECODE_ERROR_ALERT = Buffer.from([0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x32]);

export type Fault =
  /** Forward both ways. */
  | { kind: 'pass' }
  /** Answer the next request with these bytes instead of the server's reply (and keep doing so). */
  | { kind: 'reply'; bytes: Buffer }
  /** Forward the request; pass only the first `bytes` bytes of the reply, then destroy the connection. */
  | { kind: 'cut'; bytes: number }
  /** Write a fatal TLS alert into the session in place of the reply, then reset the connection. */
  | { kind: 'alert-then-reset' };

export class HostileProxy {
  port = 0;
  fault: Fault = { kind: 'pass' };
  /** Connections accepted so far (a faulted connection is followed by the client's reconnects). */
  accepted = 0;
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();

  constructor(
    private readonly targetPort: number,
    private readonly targetHost = '127.0.0.1',
  ) {
    this.server = net.createServer((c) => this.accept(c));
  }

  start(): Promise<void> {
    return new Promise((resolve) =>
      this.server.listen(0, '127.0.0.1', () => {
        this.port = (this.server.address() as net.AddressInfo).port;
        resolve();
      }),
    );
  }

  private accept(c: net.Socket): void {
    this.accepted++;
    const up = net.connect(this.targetPort, this.targetHost);
    for (const s of [c, up]) {
      this.sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        this.sockets.delete(s);
        c.destroy();
        up.destroy();
      });
    }
    // The fault applies from the first request sent after it was set, so a TLS handshake made
    // before (the client's connect) completes.
    let armed: Fault | null = null;
    let passed = 0;
    c.on('data', (d: Buffer) => {
      armed ??= this.fault.kind === 'pass' ? null : this.fault;
      if (armed?.kind === 'reply') c.write(armed.bytes);
      else if (armed?.kind === 'alert-then-reset') {
        c.write(TLS_DECODE_ERROR_ALERT);
        setTimeout(() => c.resetAndDestroy(), 50);
      } else up.write(d);
    });
    up.on('data', (d: Buffer) => {
      if (armed?.kind === 'cut') {
        const keep = Math.max(0, armed.bytes - passed);
        passed += d.length;
        if (keep > 0) c.write(d.subarray(0, keep));
        if (passed >= armed.bytes) c.resetAndDestroy();
        return;
      }
      if (armed?.kind !== 'reply' && armed?.kind !== 'alert-then-reset') c.write(d);
    });
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A server that answers every connection's first bytes with `reply` (then closes when `close`). */
export async function hostileServer(reply: Buffer, close = false): Promise<{ port: number; stop: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined);
    s.on('close', () => sockets.delete(s));
    s.once('data', () => (close ? s.end(reply) : s.write(reply)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as net.AddressInfo).port,
    stop: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Errors that reach the process's last-resort handlers while `fn` runs (none is the answer). */
export async function escapedDuring(fn: () => Promise<void>): Promise<unknown[]> {
  const escaped: unknown[] = [];
  const on = (e: unknown) => escaped.push(e);
  process.on('uncaughtException', on);
  process.on('unhandledRejection', on);
  try {
    await fn();
    // A second error of a faulted socket arrives after the call failed: give it a moment.
    await new Promise((r) => setTimeout(r, 300));
  } finally {
    process.off('uncaughtException', on);
    process.off('unhandledRejection', on);
  }
  return escaped;
}

/** The typed error a call against a hostile peer must end in: unavailable or timed out, never anything else. */
export async function brokerFailure(p: Promise<unknown>): Promise<ConsoleError> {
  const e = await p.then(
    () => expect.fail('the call succeeded'),
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ConsoleError);
  expect(['BrokerUnavailable', 'BrokerTimeout']).toContain((e as ConsoleError).code);
  return e as ConsoleError;
}
