import 'server-only';
import path from 'node:path';
import { z } from 'zod';
import { SYSTEM_KINDS } from '@/lib/brokers/dto';
import { SYSTEMS } from '@/lib/brokers/systems';
import type { BrokerConfig } from '@/lib/brokers/types';
import { ConfigError } from '@/lib/config-error';
import { consoleEnv } from '@/lib/config-file/env';
import { ZEnvironmentName } from '@/lib/environment/name';
import { rememberSecret, rememberSecretsOf } from '@/lib/text/secrets';

/**
 * `POTATOQ_CONSOLE_BROKERS`: a JSON array of `{"id", "name"?, "kind"?, "url", "readOnly"?, ...options}`
 * (`kind`: potatoq, celery, sdj or queueflow; potatoq when absent), or a single potatoq broker URL.
 * Unset or empty: the embedded demo SQLite broker. Each system's module checks the URL and the
 * options (lib/brokers/systems.ts). `POTATOQ_CONSOLE_READ_TIMEOUT_MS` / `_WRITE_TIMEOUT_MS`:
 * the service's time limits per call. `POTATOQ_CONSOLE_READ_CACHE_MS` / `_READ_CACHE_MB`: how long
 * identical reads are shared across viewers, and the memory they may hold (read-cache.ts).
 * Parsed once; a bad value throws `ConfigError` naming the field, and boot stops.
 */

export { ConfigError };

const ZUrl = z
  .string({ error: 'must be a string' })
  .min(1, 'must not be empty')
  .refine((u) => /^[a-z][a-z0-9+.-]*:\/\//i.test(u), 'must be a URL like sqlite:///path or postgresql://host/db');

const ZBrokerEntry = z
  .object({
    id: z
      .string({ error: 'is required' })
      .regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, 'must be 1-63 characters of a-z, 0-9, _ or -, starting with a letter or digit'),
    name: z.string().min(1).max(100).optional(),
    /** The queue system; potatoq when absent (its URL scheme then picks the store). */
    kind: z.enum(SYSTEM_KINDS, { error: `must be one of ${SYSTEM_KINDS.join(', ')}` }).optional(),
    url: ZUrl,
    readOnly: z.boolean({ error: 'must be true or false' }).optional(),
    /** This broker's environment, over the console's (POTATOQ_CONSOLE_ENVIRONMENT). */
    environment: ZEnvironmentName.optional(),
  })
  .catchall(z.unknown())
  .superRefine((entry, ctx) => {
    const system = SYSTEMS[entry.kind ?? 'potatoq'];
    const why = system.checkUrl(entry.url);
    if (why) return ctx.addIssue({ code: 'custom', path: ['url'], message: why });
    const { id: _id, name: _name, kind: _kind, url, readOnly: _readOnly, environment: _environment, ...options } = entry;
    const parsed = system.optionsFor(url).safeParse(options);
    if (!parsed.success) for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, message: optionMessage(issue) });
  });

/** zod's text for an unknown key names it; the path then points at the entry itself. */
function optionMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys')
    return `unknown option${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')} for this broker`;
  return issue.message;
}

const ZBrokers = z.array(ZBrokerEntry).min(1, 'must list at least one broker');

export interface ConsoleConfig {
  brokers: BrokerConfig[];
  /** The service's limits per call: reads (10 s) and writes (120 s). */
  timeouts: { readMs: number; writeMs: number };
  /** Shared reads (lib/brokers/read-cache.ts): answers reused for `ttlMs` (0: off, default 2 s,
   *  below the pages' 5 s poll), in at most `maxBytes` of memory (default 64 MB). */
  readCache: { ttlMs: number; maxBytes: number };
  /** Scheduled tasks this many seconds past due are flagged as stuck (POTATOQ_CONSOLE_OVERDUE_SECONDS, default 120). */
  overdueSeconds: number;
  /** The console's environment ("production"), shown on every page and confirmation; each
   *  broker's own `environment` wins over it. Null: none is named (POTATOQ_CONSOLE_ENVIRONMENT). */
  environment: string | null;
  /** True when no broker was configured and the embedded demo is served. */
  demo: boolean;
  demoPath: string | null;
}

function describeIssue(issue: z.core.$ZodIssue, prefix: string): string {
  const field = issue.path.reduce<string>((out, k) => (typeof k === 'number' ? `${out}[${k}]` : `${out}.${String(k)}`), prefix);
  return `${field}: ${issue.message}`;
}

/** Parses the configuration from an environment; pure, for tests. */
export function parseConfig(env: Record<string, string | undefined>): ConsoleConfig {
  const overdueSeconds = wholeSeconds(env, 'POTATOQ_CONSOLE_OVERDUE_SECONDS', 120);
  const timeouts = {
    readMs: timeout(env, 'POTATOQ_CONSOLE_READ_TIMEOUT_MS', 10_000),
    writeMs: timeout(env, 'POTATOQ_CONSOLE_WRITE_TIMEOUT_MS', 120_000),
  };
  const readCache = {
    ttlMs: bounded(env, 'POTATOQ_CONSOLE_READ_CACHE_MS', 2000, 0, READ_CACHE_MAX_MS, 'milliseconds'),
    maxBytes: bounded(env, 'POTATOQ_CONSOLE_READ_CACHE_MB', 64, 1, 4096, 'megabytes') * 1024 * 1024,
  };
  const environment = environmentName(env);
  const raw = env.POTATOQ_CONSOLE_BROKERS?.trim();
  if (!raw) {
    const demoPath = path.resolve(
      /*turbopackIgnore: true*/ env.POTATOQ_CONSOLE_DEMO_PATH ||
        path.join(/*turbopackIgnore: true*/ process.cwd(), '.data', 'demo.sqlite3'),
    );
    return {
      demo: true,
      demoPath,
      timeouts,
      readCache,
      overdueSeconds,
      environment,
      brokers: [
        {
          id: 'demo',
          name: 'Demo',
          kind: 'potatoq',
          url: `sqlite:///${demoPath}`,
          readOnly: false,
          options: { demo: true },
          ...(environment ? { environment } : {}),
        },
      ],
    };
  }
  let entries: unknown;
  if (raw.startsWith('[') || raw.startsWith('{')) {
    try {
      entries = JSON.parse(raw);
    } catch (e) {
      // V8 quotes the text around the mistake, which may be a piece of a password: only where.
      const at = /position (\d+)/.exec((e as Error).message)?.[1];
      throw new ConfigError(`POTATOQ_CONSOLE_BROKERS: not valid JSON${at ? ` (at character ${at})` : ''}`);
    }
    if (!Array.isArray(entries)) entries = [entries];
  } else {
    const url = ZUrl.safeParse(raw);
    if (!url.success) throw new ConfigError(`POTATOQ_CONSOLE_BROKERS: ${url.error.issues[0]?.message ?? 'invalid URL'}`);
    const why = SYSTEMS.potatoq.checkUrl(raw);
    if (why) throw new ConfigError(`POTATOQ_CONSOLE_BROKERS: ${why}`);
    const scheme = raw.split('://', 1)[0]!.split('+', 1)[0]!.toLowerCase();
    entries = [{ id: scheme.replace(/[^a-z0-9]/g, ''), url: raw }];
  }
  rememberBrokerSecrets(entries);
  const parsed = ZBrokers.safeParse(entries);
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    throw new ConfigError(describeIssue(first, 'POTATOQ_CONSOLE_BROKERS'));
  }
  const seen = new Set<string>();
  const brokers = parsed.data.map((entry, i) => {
    if (seen.has(entry.id)) throw new ConfigError(`POTATOQ_CONSOLE_BROKERS[${i}].id: duplicate id "${entry.id}"`);
    seen.add(entry.id);
    const { id, name, kind, url, readOnly, environment: own, ...options } = entry;
    const env = own ?? environment;
    return {
      id,
      name: name ?? id,
      kind: kind ?? 'potatoq',
      url,
      readOnly: readOnly ?? false,
      options,
      ...(env ? { environment: env } : {}),
    };
  });
  return { demo: false, demoPath: null, timeouts, readCache, overdueSeconds, environment, brokers };
}

/** Every credential in the broker entries (URLs, secret-named options such as `token` or
 *  `managementPassword`) is hidden wherever it shows up later: driver errors, logs. */
function rememberBrokerSecrets(entries: unknown): void {
  if (!Array.isArray(entries)) return;
  for (const entry of entries as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    for (const [key, value] of Object.entries(entry)) {
      if (typeof value !== 'string') continue;
      if (SECRET_OPTION.test(key)) rememberSecret(value);
      else if (value.includes('://') || value.includes('=')) rememberSecretsOf(value);
    }
  }
}
const SECRET_OPTION = /(?:password|passwd|secret|token|auth|api_?key|credentials?)$/i;

/** A time limit in milliseconds; a bad value stops startup instead of making every call time out. */
function timeout(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < 1)
    throw new ConfigError(`${name}: must be a whole number of milliseconds above 0, not "${raw.slice(0, 40)}"`);
  return n;
}

/** The longest a shared read may be reused: below the pages' poll (lib/client/refresh.tsx, 5 s),
 *  so each poll asks at most one read old. */
export const READ_CACHE_MAX_MS = 4000;

function bounded(env: Record<string, string | undefined>, name: string, fallback: number, min: number, max: number, unit: string): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < min || n > max)
    throw new ConfigError(`${name}: must be a whole number of ${unit} from ${min} to ${max}, not "${raw.slice(0, 40)}"`);
  return n;
}

function wholeSeconds(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < 1 || n > 30 * 86400)
    throw new ConfigError(`${name}: must be a whole number of seconds from 1 to 2592000, not "${raw.slice(0, 40)}"`);
  return n;
}

function environmentName(env: Record<string, string | undefined>): string | null {
  const raw = env.POTATOQ_CONSOLE_ENVIRONMENT?.trim();
  if (!raw) return null;
  const parsed = ZEnvironmentName.safeParse(raw);
  if (!parsed.success) throw new ConfigError(`POTATOQ_CONSOLE_ENVIRONMENT: ${parsed.error.issues[0]?.message ?? 'invalid name'}`);
  return parsed.data;
}

let cached: ConsoleConfig | null = null;

/** The process's configuration, parsed once. */
export function getConfig(): ConsoleConfig {
  cached ??= parseConfig(consoleEnv());
  return cached;
}
