import 'server-only';
import { redactSecrets } from '@/lib/text/secrets';

// A Redis broker URL as redis-py reads it (potatoq's and Celery's Redis brokers both hand the URL
// to redis-py), parsed into what ioredis needs.

/** What ioredis needs to reach the Redis a broker URL names. */
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
