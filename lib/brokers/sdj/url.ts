import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import { rememberSecretsOf } from '@/lib/text/secrets';

// A Simple Durable Jobs broker's URL names the application's database: `postgresql://` (or
// `postgres://`) or `mysql://`. Errors name the field and never repeat the URL: it may hold a
// password, which is remembered so that no driver text can carry it into a message either.

export type SdjDialect = 'postgres' | 'mysql';

export interface SdjTarget {
  dialect: SdjDialect;
  host: string;
  port: number;
  user: string;
  password: string | undefined;
  database: string;
  /** The URL as given (PostgreSQL hands it to `pg`, which reads its query parameters). */
  url: string;
}

const invalid = (message: string) => new ConsoleError('InvalidInput', message, { url: message });

// mysql2 options a URL may set; anything else is refused by name instead of silently ignored.
const MYSQL_PARAMS = new Set(['ssl', 'connectTimeout']);

export function parseSdjUrl(raw: string): SdjTarget {
  if (typeof raw !== 'string' || raw.trim() === '') throw invalid('url: must be a postgresql:// or mysql:// URL');
  rememberSecretsOf(raw);
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw invalid('url: not a valid URL (expected postgresql://user:password@host:port/database or mysql://…)');
  }
  const scheme = u.protocol.replace(/:$/, '');
  const dialect: SdjDialect | null = scheme === 'postgresql' || scheme === 'postgres' ? 'postgres' : scheme === 'mysql' ? 'mysql' : null;
  if (!dialect) throw invalid(`url: scheme "${scheme.slice(0, 20)}" is not supported (postgresql:// or mysql://)`);
  if (!u.hostname) throw invalid('url: host is missing');
  const database = decodeURIComponent(u.pathname.replace(/^\//, ''));
  if (!database || database.includes('/')) throw invalid('url: the database name (the path) is missing or has a "/"');
  const port = u.port ? Number(u.port) : dialect === 'postgres' ? 5432 : 3306;
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw invalid('url: port must be 1-65535');
  if (dialect === 'mysql') {
    const unknown = [...u.searchParams.keys()].filter((k) => !MYSQL_PARAMS.has(k));
    if (unknown.length) throw invalid(`url: unknown MySQL parameter ${unknown.map((k) => `"${k.slice(0, 40)}"`).join(', ')}`);
  }
  return {
    dialect,
    host: u.hostname.replace(/^\[|\]$/g, ''),
    port,
    user: decodeURIComponent(u.username),
    password: u.password ? decodeURIComponent(u.password) : undefined,
    database,
    url: raw,
  };
}
