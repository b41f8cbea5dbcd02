import 'server-only';
import { redactSecrets } from '@/lib/text/secrets';

// potatoq 26.1a8's Redis key layout (verified against brokers/redis.py in the installed
// package; docs/brokers/redis.md) and the broker URL as potatoq reads it.

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

/** What ioredis needs to reach the Redis a potatoq broker URL names. */
export interface RedisTarget {
  host?: string;
  port?: number;
  /** Unix socket path (unix:// and redis+socket://). */
  path?: string;
  db: number;
  username?: string;
  password?: string;
  tls: boolean;
  /** The URL with its password replaced by `***`, for messages. */
  redacted: string;
}

export class RedisUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RedisUrlError';
  }
}

const SCHEMES: Record<string, 'tcp' | 'tls' | 'unix'> = {
  'redis:': 'tcp',
  'valkey:': 'tcp',
  'rediss:': 'tls',
  'valkeys:': 'tls',
  'unix:': 'unix',
  'redis+socket:': 'unix',
};

/** `redacted` is the URL as a message may show it: never with its password. */
function dbNumber(text: string | null, redacted: string): number {
  if (text === null || text === '') return 0;
  if (!/^\d+$/.test(text))
    throw new RedisUrlError(`the database in ${redacted} must be a whole number, not "${redactSecrets(text.slice(0, 40))}"`);
  return Number(text);
}

/**
 * potatoq's URL handling (`_client_from_url` + redis-py `from_url`): `valkey://` is
 * `redis://`, `valkeys://` is `rediss://`, `redis+socket://` is `unix://`. The database is the
 * path (`redis://h:6379/2`) or `?db=2` (the query wins, as in redis-py); a unix URL takes the
 * socket path and `?db=`. Username and password are percent-decoded.
 */
export function parseRedisUrl(url: string): RedisTarget {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new RedisUrlError('not a valid URL');
  }
  const kind = SCHEMES[u.protocol];
  if (!kind)
    throw new RedisUrlError(
      `scheme must be one of ${Object.keys(SCHEMES)
        .map((s) => `${s}//`)
        .join(', ')}`,
    );
  const username = u.username ? decodeURIComponent(u.username) : undefined;
  const password = u.password ? decodeURIComponent(u.password) : undefined;
  // The URL's own text, not the parser's: a raw `@` or space in the password is re-encoded by
  // URL, so replacing the parsed password would leave the typed one in place.
  const redacted = redactSecrets(url);
  const dbQuery = u.searchParams.get('db');
  if (kind === 'unix') {
    const path = decodeURIComponent(u.pathname);
    if (!path || path === '/') throw new RedisUrlError('a unix:// URL needs the socket path: unix:///run/redis/redis.sock');
    return { path, db: dbNumber(dbQuery, redacted), username, password, tls: false, redacted };
  }
  if (!u.hostname) throw new RedisUrlError('the URL has no host');
  const fromPath = u.pathname.replace(/^\/+/, '').replace(/\/+$/, '');
  return {
    host: u.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: u.port ? Number(u.port) : 6379,
    db: dbNumber(dbQuery ?? fromPath, redacted),
    username,
    password,
    tls: kind === 'tls',
    redacted,
  };
}
