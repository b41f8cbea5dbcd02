import 'server-only';
import path from 'node:path';
import { z } from 'zod';
import type { BrokerConfig } from '@/lib/brokers/types';

/**
 * `POTATOQ_CONSOLE_BROKERS`: a JSON array of `{"id", "name", "url", "readOnly"?, ...options}`,
 * or a single broker URL. Unset or empty: the embedded demo SQLite broker.
 * Parsed once; a bad value throws `ConfigError` naming the field, and boot stops.
 */

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const SCHEMES = ['sqlite', 'postgresql', 'postgres', 'amqp', 'amqps', 'redis', 'rediss', 'valkey'] as const;

const ZUrl = z
  .string({ error: 'must be a string' })
  .min(1, 'must not be empty')
  .refine((u) => /^[a-z][a-z0-9+.-]*:\/\//i.test(u), 'must be a URL like sqlite:///path or postgresql://host/db')
  .refine((u) => {
    const scheme = u.split('://', 1)[0]!.split('+', 1)[0]!.toLowerCase();
    return (SCHEMES as readonly string[]).includes(scheme);
  }, `scheme must be one of ${SCHEMES.join(', ')}`);

const ZBrokerEntry = z
  .object({
    id: z
      .string({ error: 'is required' })
      .regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, 'must be 1-63 characters of a-z, 0-9, _ or -, starting with a letter or digit'),
    name: z.string().min(1).max(100).optional(),
    url: ZUrl,
    readOnly: z.boolean({ error: 'must be true or false' }).optional(),
  })
  .catchall(z.unknown());

const ZBrokers = z.array(ZBrokerEntry).min(1, 'must list at least one broker');

export interface ConsoleConfig {
  brokers: BrokerConfig[];
  /** True when no broker was configured and the embedded demo is served. */
  demo: boolean;
  demoPath: string | null;
}

function describeIssue(issue: z.core.$ZodIssue, prefix: string): string {
  const where = issue.path.length ? `${prefix}[${issue.path.map(String).join('].')}` : prefix;
  const field = where.replace(/\[(\d+)\]\.?/g, '[$1].').replace(/\.$/, '');
  return `${field}: ${issue.message}`;
}

/** Parses the configuration from an environment; pure, for tests. */
export function parseConfig(env: Record<string, string | undefined>): ConsoleConfig {
  const raw = env.POTATOQ_CONSOLE_BROKERS?.trim();
  if (!raw) {
    const demoPath = path.resolve(/*turbopackIgnore: true*/ env.POTATOQ_CONSOLE_DEMO_PATH || path.join(/*turbopackIgnore: true*/ process.cwd(), '.data', 'demo.sqlite3'));
    return {
      demo: true,
      demoPath,
      brokers: [{ id: 'demo', name: 'Demo', url: `sqlite:///${demoPath}`, readOnly: false, options: { demo: true } }],
    };
  }
  let entries: unknown;
  if (raw.startsWith('[') || raw.startsWith('{')) {
    try {
      entries = JSON.parse(raw);
    } catch (e) {
      throw new ConfigError(`POTATOQ_CONSOLE_BROKERS: not valid JSON (${(e as Error).message})`);
    }
    if (!Array.isArray(entries)) entries = [entries];
  } else {
    const url = ZUrl.safeParse(raw);
    if (!url.success) throw new ConfigError(`POTATOQ_CONSOLE_BROKERS: ${url.error.issues[0]?.message ?? 'invalid URL'}`);
    const scheme = raw.split('://', 1)[0]!.split('+', 1)[0]!.toLowerCase();
    entries = [{ id: scheme.replace(/[^a-z0-9]/g, ''), url: raw }];
  }
  const parsed = ZBrokers.safeParse(entries);
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    throw new ConfigError(describeIssue(first, 'POTATOQ_CONSOLE_BROKERS'));
  }
  const seen = new Set<string>();
  const brokers = parsed.data.map((entry, i) => {
    if (seen.has(entry.id)) throw new ConfigError(`POTATOQ_CONSOLE_BROKERS[${i}].id: duplicate id "${entry.id}"`);
    seen.add(entry.id);
    const { id, name, url, readOnly, ...options } = entry;
    return { id, name: name ?? id, url, readOnly: readOnly ?? false, options };
  });
  return { demo: false, demoPath: null, brokers };
}

let cached: ConsoleConfig | null = null;

/** The process's configuration, parsed once. */
export function getConfig(): ConsoleConfig {
  cached ??= parseConfig(process.env);
  return cached;
}
