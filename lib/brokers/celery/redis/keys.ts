import 'server-only';

// kombu 5.7's Redis transport layout (kombu/transport/redis.py), as Celery 5.7 uses it. Every
// key and PUBLISH channel is prefixed by the transport option `global_keyprefix` (default "").

/** `Channel.sep`: between a queue and its priority bucket, and inside binding members. */
export const SEP = '\x06\x16';
/** `PRIORITY_STEPS`: one list per step; workers BRPOP them in this order, so on Redis a
 *  **lower** priority number is taken first (0-2 before 3-5 before 6-8 before 9). */
export const PRIORITY_STEPS = [0, 3, 6, 9] as const;

/** kombu's `_get_message_priority` (clamped to 0..9; junk is 0) then `priority()` (the bucket). */
export function bucketOf(priority: unknown): number {
  const n = typeof priority === 'number' && Number.isFinite(priority) ? Math.trunc(priority) : 0;
  const p = Math.max(0, Math.min(9, n));
  let step = 0;
  for (const s of PRIORITY_STEPS) if (s <= p) step = s;
  return step;
}

export interface CeleryRedisKeys {
  prefix: string;
  /** The LIST of one priority bucket (`_q_for_pri`): the queue itself for bucket 0. */
  bucket(queue: string, step: number): string;
  /** Every bucket in the order workers take them. */
  buckets(queue: string): string[];
  /** SET `routing_key SEP pattern SEP queue` per exchange (`keyprefix_queue`). */
  binding(exchange: string): string;
  bindingPermanent(exchange: string): string;
  bindingPattern: string;
  bindingDeadlines: string;
  /** HASH delivery_tag -> `[message, exchange, routing_key]`: reserved by a worker. */
  unacked: string;
  /** ZSET delivery_tag -> epoch seconds it was delivered. */
  unackedIndex: string;
  /** The pidbox fanout channel (`/{db}.celery.pidbox` with fanout_prefix on). */
  pidboxChannel(db: number): string;
}

export function celeryRedisKeys(prefix = ''): CeleryRedisKeys {
  const P = prefix;
  const bucket = (queue: string, step: number) => (step ? `${P}${queue}${SEP}${step}` : `${P}${queue}`);
  return {
    prefix: P,
    bucket,
    buckets: (queue) => PRIORITY_STEPS.map((s) => bucket(queue, s)),
    binding: (exchange) => `${P}_kombu.binding.${exchange}`,
    bindingPermanent: (exchange) => `${P}_kombu.binding_permanent.${exchange}`,
    bindingPattern: `${P.replace(/[*?[\]\\]/g, (c) => `\\${c}`)}_kombu.binding.*`,
    bindingDeadlines: `${P}_kombu.binding_deadlines`,
    unacked: `${P}unacked`,
    unackedIndex: `${P}unacked_index`,
    pidboxChannel: (db) => `${P}/${db}.celery.pidbox`,
  };
}

/** A binding member `routing_key SEP pattern SEP queue` -> its queue (null when malformed). */
export function bindingQueue(member: string): string | null {
  const parts = member.split(SEP);
  return parts.length === 3 && parts[2] ? parts[2] : null;
}

/** Exchanges Celery itself binds that hold no task queues (control and replies). */
export const isControlExchange = (exchange: string) =>
  exchange === 'celery.pidbox' || exchange === 'reply.celery.pidbox' || exchange === 'celeryev';

/** Queues of the control plane, never task queues. */
export const isControlQueue = (queue: string) =>
  queue.endsWith('.reply.celery.pidbox') || queue.endsWith('.celery.pidbox') || queue.startsWith('celeryev.');
