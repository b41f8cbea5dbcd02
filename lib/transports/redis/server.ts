import 'server-only';
import type { AccessCheck } from '@/lib/brokers/types';
import { Redis } from 'ioredis';
import { parseRedisUrl } from './url';
import { GuardedConnector } from './socket-guard';

// Connecting to the Redis a broker URL names (potatoq's or Celery's), and what the console checks about that
// server before it trusts it: version, Cluster mode, eviction policy.

/**
 * An ioredis client for a Redis broker URL (redis://, rediss://, valkey://, valkeys://, unix://).
 * `tlsCa`: the PEM CA(s) a TLS URL trusts instead of the system's (else Node's defaults, which
 * NODE_EXTRA_CA_CERTS extends); the server's name is always verified.
 */
export function connectRedis(url: string, timeoutMs = 5000, tlsCa?: string): Redis {
  const t = parseRedisUrl(url);
  const client = new Redis({
    ...(t.path ? { path: t.path } : { host: t.host, port: t.port }),
    db: t.db,
    username: t.username,
    password: t.password,
    tls: t.tls ? (tlsCa ? { ca: tlsCa } : {}) : undefined,
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 1,
    // Never replay a write after a reconnect: a script must run once or be reported failed.
    autoResendUnfulfilledCommands: false,
    // Every socket keeps an error listener for its whole life (socket-guard.ts).
    Connector: GuardedConnector,
  });
  // ioredis fails a command after its retries with "Reached the max retries …": the cause (a
  // refused connection, an untrusted certificate) is only in the connection's last error.
  client.on('error', (e: Error) => lastErrors.set(client, e));
  client.on('ready', () => lastErrors.delete(client));
  return client;
}

const lastErrors = new WeakMap<Redis, Error>();

/**
 * `e`'s message, or, when it only says ioredis gave up before sending (its retries exhausted),
 * the connection error that made it give up (with its code).
 */
export function redisFailure(client: Redis, e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  const cause = lastErrors.get(client) as (Error & { code?: string }) | undefined;
  if (!cause || !/max retries per request/i.test(msg)) return msg;
  return cause.code && !cause.message.includes(cause.code) ? `${cause.message} (${cause.code})` : cause.message;
}

/** Node's TLS failures (certificate chain, name, handshake): the words a console error must say. */
const TLS_FAILURE =
  /certificate|self[- ]signed|UNABLE_TO_VERIFY|CERT_|ERR_TLS|ERR_SSL|SSL routines|wrong version number|handshake|Hostname\/IP does not match/i;

/** True when `msg` is a TLS failure (an untrusted or mismatched certificate, a failed handshake). */
export function isTlsFailure(msg: string): boolean {
  return TLS_FAILURE.test(msg);
}

export interface ServerCheck {
  /** `redis` or `valkey` (INFO server's `server_name`, absent on Redis). */
  server: string;
  version: string;
  /** Null when the server is usable; otherwise why the console must refuse it. */
  refusal: string | null;
  /** `maxmemory-policy`, or null when CONFIG is disabled (managed services). */
  maxmemoryPolicy: string | null;
  /** Shown on the overview, like `potatoq migrate`'s warning. Null when fine or unknown. */
  evictionWarning: string | null;
}

/** `INFO` text → field map. */
export function parseInfo(text: string): Map<string, string> {
  const m = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0 && !line.startsWith('#')) m.set(line.slice(0, i), line.slice(i + 1).trim());
  }
  return m;
}

/** True when `version` is at least 6.2 (potatoq's script needs `ZRANGE … BYSCORE`). */
export function versionAtLeast62(version: string): boolean {
  const [maj = 0, min = 0] = version.split('.').map((x) => Number.parseInt(x, 10) || 0);
  return maj > 6 || (maj === 6 && min >= 2);
}

/** potatoq's `setup()` (= `potatoq migrate`): warn unless `noeviction`. */
export function evictionWarning(policy: string | null): string | null {
  if (!policy || policy === 'noeviction') return null;
  return `Redis maxmemory-policy is '${policy}': Redis may silently evict queued tasks. Use 'noeviction' (and a separate Redis for caching), as potatoq migrate warns.`;
}

export function judgeServer(info: Map<string, string>, policy: string | null): ServerCheck {
  const server = info.get('server_name') ?? 'redis';
  // Valkey reports valkey_version and a redis_version compatibility value (7.2.4).
  const version = info.get('valkey_version') ?? info.get('redis_version') ?? '0';
  const compat = info.get('redis_version') ?? version;
  let refusal: string | null = null;
  if (info.get('cluster_enabled') === '1' || info.get('redis_mode') === 'cluster') {
    refusal =
      'this is a Redis Cluster node: potatoq 26.1a8 does not support Redis Cluster (its scripts touch keys of several queues), so the console refuses it too. Point the console at a standalone Redis or a Sentinel-managed primary.';
  } else if (!versionAtLeast62(compat)) {
    refusal = `${server} ${version} is too old: potatoq needs Redis 6.2+ (ZRANGE … BYSCORE).`;
  }
  return { server, version, refusal, maxmemoryPolicy: policy, evictionWarning: evictionWarning(policy) };
}

/** INFO server + INFO cluster + CONFIG GET maxmemory-policy, pipelined. */
export async function checkServer(client: Redis): Promise<ServerCheck> {
  const res = (await client.pipeline().info('server').info('cluster').config('GET', 'maxmemory-policy').exec()) ?? [];
  // A pipeline reports errors per command: an unreachable server is not a server "version 0".
  const failed = res[0]?.[0];
  if (failed) throw failed;
  const text = [res[0]?.[1], res[1]?.[1]].filter((x): x is string => typeof x === 'string').join('\n');
  const cfg = res[2]?.[0] ? null : (res[2]?.[1] as string[] | undefined);
  const policy = cfg && cfg.length >= 2 ? (cfg[1] ?? null) : null;
  return judgeServer(parseInfo(text), policy);
}

/** The doctor's row for the eviction policy: `noeviction` is what a queue needs. */
export function evictionCheck(s: ServerCheck): AccessCheck {
  const check = `${s.server === 'valkey' ? 'Valkey' : 'Redis'} maxmemory-policy`;
  if (s.maxmemoryPolicy === null)
    return { check, ok: null, detail: 'unknown: CONFIG GET is disabled on this server (a managed service); make sure it is noeviction' };
  if (s.maxmemoryPolicy === 'noeviction') return { check, ok: true, detail: 'noeviction: queued tasks are never evicted' };
  return { check, ok: false, detail: s.evictionWarning ?? `'${s.maxmemoryPolicy}'` };
}
