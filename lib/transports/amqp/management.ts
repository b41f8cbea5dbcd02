import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import type { ManagementTarget } from './url';
import { HOLDER_ARG, SINCE_ARG, type LockHolder } from './lock-holder';

export interface MgmtQueue {
  name: string;
  type: string | null;
  arguments: Record<string, unknown>;
  ready: number | null;
  unacked: number | null;
  messages: number | null;
  consumers: number | null;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * The management HTTP API (read-only use). Its message counts are RabbitMQ's periodic
 * statistics (every `collect_statistics_interval`, 5 s by default), so they may lag the
 * broker by a few seconds; ready counts come from AMQP passive declares instead.
 */
export class Management {
  constructor(
    private readonly target: ManagementTarget,
    private readonly timeoutMs: number,
  ) {}

  private async get(path: string): Promise<unknown> {
    let res: Response;
    try {
      res = await fetch(`${this.target.base}${path}`, {
        headers: { authorization: this.target.authorization, accept: 'application/json' },
        signal: AbortSignal.timeout(this.timeoutMs),
        cache: 'no-store',
      });
    } catch (e) {
      const why = e instanceof Error && e.name === 'TimeoutError' ? 'timed out' : 'not reachable';
      throw new ConsoleError('BrokerUnavailable', `the RabbitMQ management API is ${why}`);
    }
    if (res.status === 401)
      throw new ConsoleError(
        'BrokerUnavailable',
        'the RabbitMQ management API refused the login (check managementUser/managementPassword)',
      );
    if (!res.ok) throw new ConsoleError('BrokerUnavailable', `the RabbitMQ management API answered HTTP ${res.status}`);
    let text: string;
    try {
      text = await res.text();
    } catch {
      throw new ConsoleError('BrokerUnavailable', 'the RabbitMQ management API broke off its answer');
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // An HTML page (a proxy, a login page, the wrong port): said so, never echoed.
      throw new ConsoleError(
        'BrokerUnavailable',
        'the RabbitMQ management API answered with something that is not JSON: check managementUrl (the management plugin, e.g. port 15672)',
      );
    }
  }

  async version(): Promise<string | null> {
    const o = (await this.get('/api/overview?columns=rabbitmq_version')) as { rabbitmq_version?: unknown };
    return typeof o.rabbitmq_version === 'string' ? o.rabbitmq_version : null;
  }

  /** The management login's user and tags (`/api/whoami`: any user the API lets in). */
  async whoami(): Promise<{ name: string; tags: string[] }> {
    const o = (await this.get('/api/whoami')) as { name?: unknown; tags?: unknown };
    const tags = Array.isArray(o.tags) ? o.tags.map(String) : typeof o.tags === 'string' ? o.tags.split(',').filter(Boolean) : [];
    return { name: typeof o.name === 'string' ? o.name : '?', tags };
  }

  /** The plugins enabled on every node (`/api/nodes`: the login needs the monitoring tag). */
  async plugins(): Promise<string[]> {
    const nodes = (await this.get('/api/nodes?columns=name,enabled_plugins')) as unknown;
    const names = new Set<string>();
    for (const n of Array.isArray(nodes) ? nodes : [])
      for (const p of Array.isArray((n as { enabled_plugins?: unknown }).enabled_plugins)
        ? (n as { enabled_plugins: unknown[] }).enabled_plugins
        : [])
        names.add(String(p));
    return [...names].sort();
  }

  /**
   * Every queue of the vhost with its message totals, and its consumers counted from the
   * consumer list. One listing without per-queue statistics (`disable_stats`, with
   * `enable_queue_totals` for the counts): the API's pages each cost the whole listing, and its
   * statistics cost most of it; on RabbitMQ 4.3 with 10,000 quorum queues a page of 500 took
   * 10.7 s and the full listing with statistics 8.9 s, this one 1.5 s (docs/performance.md,
   * "Thousands of queues"). A server too old for the flags sends the full listing, which has
   * the same fields.
   */
  async queues(vhost: string): Promise<MgmtQueue[]> {
    const v = encodeURIComponent(vhost);
    const cols = 'name,type,arguments,messages_ready,messages_unacknowledged,messages';
    const [listed, consumers] = await Promise.all([
      this.get(`/api/queues/${v}?disable_stats=true&enable_queue_totals=true&columns=${cols}`),
      this.get(`/api/consumers/${v}?columns=queue.name`),
    ]);
    const perQueue = new Map<string, number>();
    for (const c of Array.isArray(consumers) ? consumers : []) {
      const name = (c as { queue?: { name?: unknown } } | null)?.queue?.name;
      if (typeof name === 'string') perQueue.set(name, (perQueue.get(name) ?? 0) + 1);
    }
    const out: MgmtQueue[] = [];
    for (const q of Array.isArray(listed) ? listed : []) {
      const r = q as Record<string, unknown>;
      if (!r || typeof r.name !== 'string') continue;
      out.push({
        name: r.name,
        type: typeof r.type === 'string' ? r.type : null,
        arguments: r.arguments && typeof r.arguments === 'object' ? (r.arguments as Record<string, unknown>) : {},
        ready: num(r.messages_ready),
        unacked: num(r.messages_unacknowledged),
        messages: num(r.messages),
        consumers: perQueue.get(r.name) ?? 0,
      });
    }
    return out;
  }

  /** Who holds a console's browse lock queue (its arguments name the process and since when);
   *  null when the queue is gone or says nothing. */
  async lockHolder(vhost: string, queue: string): Promise<LockHolder | null> {
    let body: unknown;
    try {
      body = await this.get(`/api/queues/${encodeURIComponent(vhost)}/${encodeURIComponent(queue)}?columns=arguments`);
    } catch {
      return null;
    }
    const args = (body as { arguments?: Record<string, unknown> } | null)?.arguments ?? {};
    const text = (v: unknown) => (typeof v === 'string' ? v.slice(0, 200) : null);
    const holder = text(args[HOLDER_ARG]);
    const since = text(args[SINCE_ARG]);
    return holder || since ? { holder, since } : null;
  }

  /** The vhost's bindings to queues (`/api/bindings/<vhost>`; the default exchange's are source ""). */
  async queueBindings(vhost: string): Promise<Array<{ exchange: string; routingKey: string; queue: string }>> {
    const body = await this.get(`/api/bindings/${encodeURIComponent(vhost)}`);
    const out: Array<{ exchange: string; routingKey: string; queue: string }> = [];
    for (const b of Array.isArray(body) ? body : []) {
      const r = b as Record<string, unknown>;
      if (r.destination_type !== 'queue' || typeof r.destination !== 'string' || typeof r.source !== 'string') continue;
      out.push({ exchange: r.source, routingKey: typeof r.routing_key === 'string' ? r.routing_key : '', queue: r.destination });
    }
    return out;
  }
}
