import 'server-only';

// potatoq 26.1a8's Redis key layout (verified against brokers/redis.py in the installed
// package; docs/brokers/redis.md). The broker URL is read by lib/transports/redis/url.ts.

/**
 * The key prefix exactly as `RedisBroker.__init__` computes it:
 * `str(options.get("global_keyprefix") or options.get("prefix") or "potatoq").rstrip(":")`.
 * Python's `or` skips empty strings (and null), and `rstrip(":")` strips every trailing colon,
 * so `"app::"` gives `"app"` and `":"` gives `""` (keys then start with `":"`, as potatoq's do).
 */
export function potatoqPrefix(options: { global_keyprefix?: unknown; prefix?: unknown } = {}): string {
  const pick = (v: unknown) => (v === undefined || v === null || v === '' || v === false || v === 0 ? null : v);
  const raw = pick(options.global_keyprefix) ?? pick(options.prefix) ?? 'potatoq';
  return String(raw).replace(/:+$/, '');
}

/** Every key the console reads or writes, for one prefix `P`. */
export interface RedisKeys {
  prefix: string;
  /** SET of every queue ever enqueued to (never pruned). */
  queues: string;
  /** STRING counter: FIFO sequence inside a priority. */
  seq: string;
  /** ZSET id → died ms. */
  dead: string;
  /** HASH node id → heartbeat JSON. */
  workers: string;
  /** HASH q p pr d st tok w pid r died. */
  job(id: string): string;
  /** ZSET id → -priority·2^40 + seq (claim order = ascending score). */
  ready(queue: string): string;
  /** ZSET id → due ms. */
  delayed(queue: string): string;
  /** ZSET id → lease deadline ms. */
  active(queue: string): string;
  /** ZSET with the single member "0": the BZPOPMIN wake-up key. */
  marker(queue: string): string;
  /** STRING ResultRecord JSON. */
  result(id: string): string;
  waiting(id: string): string;
  notify(id: string): string;
  /** SCAN patterns. Glob characters in the prefix are escaped. */
  resultPattern: string;
  registeredPattern: string;
}

export const REGISTERED_PREFIX = 'potatoq-registered-';
/** Result ids that are not tasks: registered-name lists and saved groups (`GroupResult.save`). */
export const isInternalResultId = (id: string) => id.startsWith(REGISTERED_PREFIX) || id.startsWith('group:');

/** The score band width: priority dominates the sequence (`PRIO = 2^40` in potatoq's script). */
export const PRIO = 2 ** 40;

/** Escapes Redis glob metacharacters so a prefix like `app[1]` matches only itself. */
export const globEscape = (s: string) => s.replace(/[*?[\]\\]/g, (c) => `\\${c}`);

export function redisKeys(prefix: string): RedisKeys {
  const P = prefix;
  const q = (queue: string) => `${P}:q:${queue}`;
  return {
    prefix: P,
    queues: `${P}:queues`,
    seq: `${P}:seq`,
    dead: `${P}:dead`,
    workers: `${P}:workers`,
    job: (id) => `${P}:job:${id}`,
    ready: (queue) => `${q(queue)}:ready`,
    delayed: (queue) => `${q(queue)}:delayed`,
    active: (queue) => `${q(queue)}:active`,
    marker: (queue) => `${q(queue)}:marker`,
    result: (id) => `${P}:result:${id}`,
    waiting: (id) => `${P}:waiting:${id}`,
    notify: (id) => `${P}:notify:${id}`,
    resultPattern: `${globEscape(P)}:result:*`,
    registeredPattern: `${globEscape(P)}:result:${REGISTERED_PREFIX}*`,
  };
}
