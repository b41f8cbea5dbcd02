import 'server-only';
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { CeleryRedisCtx } from './context';
import { SEP } from './keys';

// Celery's remote control over kombu's pidbox on Redis, as `app.control` does it
// (kombu/pidbox.py `Mailbox._publish` / `_collect`, observed with MONITOR): the request is a
// kombu envelope PUBLISHed on the fanout channel `/{db}.celery.pidbox` (workers PSUBSCRIBE),
// with headers `{clock, expires}`; workers drop it once `expires` passed. A reply is wanted
// when the body has `ticket` and `reply_to: {exchange: "reply.celery.pidbox", routing_key:
// <oid>}`: workers LPUSH their answers to the list bound under that routing key, here
// `<oid>.reply.celery.pidbox`, which this side binds (as `maybe_declare` does), reads for
// the bounded wait, and removes again.

const REPLY_EXCHANGE = 'reply.celery.pidbox';

function envelope(body: Record<string, unknown>, expiresSec: number): string {
  return JSON.stringify({
    body: Buffer.from(JSON.stringify(body), 'utf8').toString('base64'),
    'content-encoding': 'utf-8',
    'content-type': 'application/json',
    headers: { clock: 1, expires: expiresSec },
    properties: {
      delivery_mode: 2,
      delivery_info: { exchange: 'celery.pidbox', routing_key: '' },
      priority: 0,
      body_encoding: 'base64',
      delivery_tag: randomUUID(),
    },
  });
}

/** Broadcasts a control command without waiting for replies; the number of subscribers that got it. */
export async function broadcast(ctx: CeleryRedisCtx, method: string, args: Record<string, unknown>): Promise<number> {
  const body = { method, arguments: args, destination: null, pattern: null, matcher: null };
  return ctx.client.publish(ctx.keys.pidboxChannel(ctx.db), envelope(body, Date.now() / 1000 + 1));
}

/** `celery control revoke` for these ids: one broadcast, as `app.control.revoke(ids)` sends. */
export async function broadcastRevoke(ctx: CeleryRedisCtx, ids: string[]): Promise<number> {
  if (!ids.length) return 0;
  return broadcast(ctx, 'revoke', { task_id: ids.length === 1 ? ids[0] : ids, terminate: false, signal: 'SIGTERM' });
}

/** Said where the login's ACL keeps the console off the pidbox (no PUBLISH on its channel). */
export const PIDBOX_REFUSED =
  "the broker login's ACL refuses the pidbox (PUBLISH on Celery's control channel, its reply queue): the console cannot ask the workers; grant the channel (&…celery.pidbox) to see them";

/** A Redis ACL refusal (NOPERM), as opposed to a server that is down or slow. */
export const isNoPerm = (e: unknown): boolean => e instanceof Error && /^NOPERM/.test(e.message);

/** `app.control.inspect().<method>()` / `ping()`: hostname -> reply, collected for `timeoutMs`. */
export async function inspect(ctx: CeleryRedisCtx, method: string, timeoutMs = ctx.inspectTimeoutMs): Promise<Map<string, unknown>> {
  const oid = randomUUID();
  const ticket = randomUUID();
  const queue = `${oid}.${REPLY_EXCHANGE}`;
  const bindingKey = ctx.keys.binding(REPLY_EXCHANGE);
  const member = [oid, '', queue].join(SEP);
  const replyKey = `${ctx.keys.prefix}${queue}`;
  const replies = new Map<string, unknown>();
  await ctx.client.sadd(bindingKey, member);
  // The reply queue expires like Celery's own (kombu drops the binding after its deadline).
  await ctx.client.zadd(ctx.keys.bindingDeadlines, 'GT', Date.now() + 60_000, REPLY_EXCHANGE).catch(() => undefined);
  const reader: Redis = ctx.client.duplicate();
  reader.on('error', () => undefined);
  try {
    const body = {
      method,
      arguments: {},
      destination: null,
      pattern: null,
      matcher: null,
      ticket,
      reply_to: { exchange: REPLY_EXCHANGE, routing_key: oid },
    };
    await ctx.client.publish(ctx.keys.pidboxChannel(ctx.db), envelope(body, (Date.now() + timeoutMs) / 1000));
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      const got = await reader.brpop(replyKey, Math.max(0.05, left / 1000));
      if (!got) break;
      collect(got[1], ticket, replies);
    }
  } finally {
    reader.disconnect();
    await ctx.client.multi().srem(bindingKey, member).del(replyKey).exec();
  }
  return replies;
}

function collect(item: string, ticket: string, into: Map<string, unknown>): void {
  try {
    const env = JSON.parse(item) as { body?: string; headers?: { ticket?: string } };
    if (env.headers?.ticket !== ticket || typeof env.body !== 'string') return;
    const reply = JSON.parse(Buffer.from(env.body, 'base64').toString('utf8')) as Record<string, unknown>;
    for (const [host, value] of Object.entries(reply)) into.set(host, value);
  } catch {
    // Not a reply we can read: ignored, like kombu ignores undecodable replies.
  }
}
