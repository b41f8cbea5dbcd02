import 'server-only';
import amqp, { type Channel, type ChannelModel, type ConfirmChannel } from 'amqplib';
import { ConsoleError } from '@/lib/brokers/errors';
import type { AmqpTarget } from './url';
import { THIS_CONSOLE, type LockHolder } from './lock-holder';

/** Channels `checkMany` declares over at once. */
export const CHECK_LANES = 4;

/** What the server said about itself in `connection.start`. */
export interface ServerInfo {
  product: string;
  version: string;
  major: number;
}

/**
 * One AMQP connection per adapter, opened lazily and re-opened on the next call after it
 * drops (broker restart, network): every operation opens its own channel on the current
 * connection, so nothing survives a reconnect that could be stale. Errors never carry the
 * URL or its credentials.
 */
export class AmqpLink {
  private conn: Promise<ChannelModel> | null = null;
  private closed = false;
  server: ServerInfo | null = null;
  private cluster: string | null = null;

  constructor(
    private readonly target: AmqpTarget,
    private readonly timeoutMs: number,
    /** Who holds a browse lock queue (the management API), where it can be asked. */
    readonly lockHolderOf?: (lockQueue: string) => Promise<LockHolder | null>,
  ) {}

  private open(): Promise<ChannelModel> {
    if (this.closed) return Promise.reject(new ConsoleError('BrokerUnavailable', 'this RabbitMQ adapter is closed'));
    this.conn ??= (async () => {
      try {
        const c = await amqp.connect(this.target.url, {
          timeout: this.timeoutMs,
          // Without it, a frame sent right after one that has no reply (an ack, a nack, a publish,
          // a channel.close-ok) waits for the server's delayed TCP ACK: about 40 ms each (a
          // filtered redrive at 174 msgs/s; 1.2 s of an overview with potatoq's 28 delay queues).
          noDelay: true,
          // Shown by RabbitMQ (management UI, `rabbitmqctl list_connections`): which console it is.
          clientProperties: { connection_name: `potatoq-console ${THIS_CONSOLE}` },
        });
        const props = c.connection.serverProperties as Record<string, unknown>;
        const version = String(props.version ?? '');
        this.server = { product: String(props.product ?? 'RabbitMQ'), version, major: Number.parseInt(version, 10) || 0 };
        this.cluster = typeof props.cluster_name === 'string' ? props.cluster_name : null;
        const drop = () => {
          this.conn = null;
        };
        c.on('close', drop);
        c.on('error', drop);
        return c;
      } catch (e) {
        this.conn = null;
        throw describeAmqpError(e, this.target.display);
      }
    })();
    return this.conn;
  }

  async serverInfo(): Promise<ServerInfo> {
    await this.open();
    return this.server!;
  }

  /** The server's cluster and this link's vhost: what browse locks in this process are shared by
   *  (the cluster's own name, so two spellings of its host are one scope). */
  async lockScope(): Promise<string> {
    await this.open();
    return `${this.cluster ?? this.target.display}|${this.target.vhost}`;
  }

  /** Runs `fn` on a fresh channel that is closed afterwards (unacked deliveries then go back). */
  withChannel<T>(fn: (ch: Channel) => Promise<T>): Promise<T> {
    return this.onFresh((c) => c.createChannel(), fn);
  }

  /** The same on a publisher-confirm channel. */
  withConfirmChannel<T>(fn: (ch: ConfirmChannel) => Promise<T>): Promise<T> {
    return this.onFresh((c) => c.createConfirmChannel(), fn);
  }

  /** A channel on the current connection that the caller closes (a DLQ stream's lanes). */
  async openChannel(): Promise<Channel> {
    const c = await this.open();
    const ch = await c.createChannel().catch((e: unknown) => {
      throw describeAmqpError(e, this.target.display);
    });
    ch.on('error', () => undefined);
    return ch;
  }

  private async onFresh<C extends Channel, T>(create: (c: ChannelModel) => Promise<C>, fn: (ch: C) => Promise<T>): Promise<T> {
    const c = await this.open();
    const ch = await create(c).catch((e: unknown) => {
      throw describeAmqpError(e, this.target.display);
    });
    ch.on('error', () => undefined);
    try {
      return await fn(ch);
    } finally {
      await ch.close().catch(() => undefined);
    }
  }

  /** Passive declare: the ready count and consumers, or null when the queue does not exist. */
  async checkQueue(name: string): Promise<{ messages: number; consumers: number } | null> {
    try {
      return await this.withChannel(async (ch) => {
        const ok = await ch.checkQueue(name);
        return { messages: ok.messageCount, consumers: ok.consumerCount };
      });
    } catch (e) {
      if (isNotFound(e)) return null;
      throw describeAmqpError(e, this.target.display);
    }
  }

  /**
   * Passive declares of many queues, over up to CHECK_LANES channels at once: a channel answers
   * one declare at a time, so 12 queues on one channel were 12 round trips in a row. Each lane
   * takes the next name left; a 404 closes its channel and it opens another. Channels are
   * closed without waiting for the broker's close-ok (nothing is read from them after).
   */
  async checkMany(names: string[]): Promise<Map<string, { messages: number; consumers: number } | null>> {
    const out = new Map<string, { messages: number; consumers: number } | null>();
    if (!names.length) return out;
    const c = await this.open();
    const left = [...names];
    const lane = async () => {
      let ch: Channel | null = null;
      try {
        for (let name = left.shift(); name !== undefined; name = left.shift()) {
          if (!ch) {
            ch = await c.createChannel();
            ch.on('error', () => undefined);
          }
          try {
            const ok = await ch.checkQueue(name);
            out.set(name, { messages: ok.messageCount, consumers: ok.consumerCount });
          } catch (e) {
            if (!isNotFound(e)) throw e;
            out.set(name, null);
            ch = null; // a 404 closes the channel
          }
        }
      } finally {
        void ch?.close().catch(() => undefined);
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(CHECK_LANES, names.length) }, lane));
      return out;
    } catch (e) {
      left.length = 0; // the other lanes stop after their current declare
      throw describeAmqpError(e, this.target.display);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const c = this.conn;
    this.conn = null;
    if (c) await c.then((x) => x.close()).catch(() => undefined);
  }
}

export const isNotFound = (e: unknown): boolean => (e as { code?: unknown })?.code === 404;

/** A driver error as a ConsoleError, naming the server but never the URL's credentials. */
export function describeAmqpError(e: unknown, where: string): ConsoleError {
  if (e instanceof ConsoleError) return e;
  const msg = e instanceof Error ? e.message : String(e);
  const code = (e as { code?: unknown })?.code;
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'ETIMEDOUT' || /ECONNREFUSED|ETIMEDOUT|timeout/i.test(msg)) {
    return new ConsoleError(
      'BrokerUnavailable',
      `RabbitMQ at ${where} is not reachable (${String(code ?? msg).replace(/amqps?:\/\/\S+/g, '')})`,
    );
  }
  if (/ACCESS_REFUSED|403/.test(msg))
    return new ConsoleError('BrokerUnavailable', `RabbitMQ at ${where} refused the login (check the user and password)`);
  if (/NOT_ALLOWED|vhost/.test(msg))
    return new ConsoleError('BrokerUnavailable', `RabbitMQ at ${where}: the vhost does not exist or this user may not use it`);
  return new ConsoleError('BrokerUnavailable', `RabbitMQ at ${where}: ${msg.replace(/amqps?:\/\/\S+/g, '<url>')}`);
}
