import 'server-only';
import { z } from 'zod';
import { ConfigError } from '@/lib/config-error';
import { consoleEnv } from '@/lib/config-file/env';
import { rememberSecret } from '@/lib/text/secrets';
import { PASSWORD_HASH_RE, TOKEN_DIGEST_RE } from './password';
import { parseAddressList, type AddressMatcher } from './address';
import { ZGrant, ZRole, field, json, opt, type Grant, type Role } from './config-fields';
import { parseOidcConfig, type OidcConfig } from './oidc-config';

export { ZGrant, field, json, opt, type Grant, type Role };

/**
 * Authentication settings, from the environment, parsed once at boot (instrumentation) with
 * zod; a bad value throws ConfigError naming the variable. Nothing set = mode `none`, which
 * boot only accepts on a loopback address (see bind.ts).
 */

/** An API token may also be `metrics`: it reads `/metrics` and nothing else (a Prometheus scraper). */
export type TokenRole = Role | 'metrics';
export type AuthMode = 'none' | 'accounts' | 'proxy' | 'oidc';

export interface Account extends Grant {
  user: string;
  hash: string;
}

export interface ApiToken extends Omit<Grant, 'role'> {
  name: string;
  digest: string;
  role: TokenRole;
}

export interface AuthConfig {
  mode: AuthMode;
  /** Mode none off loopback, explicitly allowed: the UI shows a banner. */
  insecure: boolean;
  accounts: Account[];
  sessionSecret: string | null;
  sessionSeconds: number;
  cookieSecure: 'auto' | boolean;
  proxy: {
    userHeader: string;
    groupsHeader: string;
    addresses: AddressMatcher | null;
    secret: string | null;
    secretHeader: string;
    /** group -> grant; `*` applies to every user the proxy vouches for. */
    roles: Record<string, Grant>;
  };
  /** Mode oidc only (lib/auth/oidc-config.ts). */
  oidc: OidcConfig | null;
  tokens: ApiToken[];
  /** Viewers see argument values as hidden; operators reveal them (audited). */
  redactArgs: boolean;
}

const ZFlag = z
  .enum(['1', 'true', 'yes', '0', 'false', 'no', ''], { error: 'must be 1/true/yes or 0/false/no' })
  .transform((v) => ['1', 'true', 'yes'].includes(v));
const ZHeaderName = z
  .string()
  .regex(/^[A-Za-z0-9-]+$/, 'must be an HTTP header name')
  .transform((h) => h.toLowerCase());

const ZAccount = z
  .object({
    user: z
      .string()
      .min(1)
      .max(100)
      .regex(/^[^\s:]+$/, 'must not contain spaces or colons'),
    hash: z.string().regex(PASSWORD_HASH_RE, 'must be an scrypt hash made by `npm run hash-password`'),
    role: ZRole,
    readOnlyBrokers: z.array(z.string()).default([]),
  })
  .strict();
const ZToken = z
  .object({
    name: z.string().min(1).max(100),
    hash: z.string().regex(TOKEN_DIGEST_RE, 'must be a sha256:<hex> digest made by `npm run hash-password -- --token`'),
    role: z.enum(['viewer', 'operator', 'metrics'], { error: 'must be "viewer", "operator" or "metrics"' }),
    readOnlyBrokers: z.array(z.string()).default([]),
  })
  .strict();

/** Parses the authentication settings from an environment; pure, for tests. */
export function parseAuthConfig(env: Record<string, string | undefined>): AuthConfig {
  const mode = field(
    'POTATOQ_CONSOLE_AUTH',
    z.enum(['none', 'accounts', 'proxy', 'oidc'], { error: 'must be none, accounts, proxy or oidc' }),
    opt(env.POTATOQ_CONSOLE_AUTH) ?? 'none',
  );
  const accounts = json('POTATOQ_CONSOLE_USERS', env.POTATOQ_CONSOLE_USERS, z.array(ZAccount), []);
  const tokens = json('POTATOQ_CONSOLE_TOKENS', env.POTATOQ_CONSOLE_TOKENS, z.array(ZToken), []);
  const sessionSecret = opt(env.POTATOQ_CONSOLE_SESSION_SECRET) ?? null;
  const seen = new Set<string>();
  accounts.forEach((a, i) => {
    if (seen.has(a.user)) throw new ConfigError(`POTATOQ_CONSOLE_USERS[${i}].user: duplicate user "${a.user}"`);
    seen.add(a.user);
  });
  if (mode === 'accounts') {
    if (!accounts.length) throw new ConfigError('POTATOQ_CONSOLE_USERS: accounts mode needs at least one user');
    if (!sessionSecret) throw new ConfigError('POTATOQ_CONSOLE_SESSION_SECRET: required in accounts mode (32+ random characters)');
  }
  if (sessionSecret !== null && sessionSecret.length < 32)
    throw new ConfigError('POTATOQ_CONSOLE_SESSION_SECRET: must be at least 32 characters');
  const hours = field(
    'POTATOQ_CONSOLE_SESSION_HOURS',
    z.coerce.number({ error: 'must be a number' }).min(0.05).max(720),
    opt(env.POTATOQ_CONSOLE_SESSION_HOURS) ?? 8,
  );
  const cookieSecure = field(
    'POTATOQ_CONSOLE_COOKIE_SECURE',
    z.enum(['auto', 'true', 'false'], { error: 'must be auto, true or false' }).transform((v) => (v === 'auto' ? 'auto' : v === 'true')),
    opt(env.POTATOQ_CONSOLE_COOKIE_SECURE) ?? 'auto',
  );
  let addresses: AddressMatcher | null = null;
  const rawAddresses = opt(env.POTATOQ_CONSOLE_PROXY_ADDRESSES);
  if (rawAddresses) {
    try {
      addresses = parseAddressList(rawAddresses);
    } catch (e) {
      throw new ConfigError(`POTATOQ_CONSOLE_PROXY_ADDRESSES: ${(e as Error).message}`);
    }
  }
  const proxySecret = opt(env.POTATOQ_CONSOLE_PROXY_SECRET) ?? null;
  if (proxySecret !== null && proxySecret.length < 16)
    throw new ConfigError('POTATOQ_CONSOLE_PROXY_SECRET: must be at least 16 characters');
  // Hidden wherever they show up in a message or a log line (lib/text/secrets.ts).
  rememberSecret(sessionSecret);
  rememberSecret(proxySecret);
  if (mode === 'proxy' && !addresses && !proxySecret) {
    throw new ConfigError('POTATOQ_CONSOLE_PROXY_ADDRESSES: proxy mode needs the proxy addresses, POTATOQ_CONSOLE_PROXY_SECRET, or both');
  }
  return {
    mode,
    insecure: field('POTATOQ_CONSOLE_INSECURE_NO_AUTH', ZFlag, opt(env.POTATOQ_CONSOLE_INSECURE_NO_AUTH) ?? ''),
    accounts,
    sessionSecret,
    sessionSeconds: Math.round(hours * 3600),
    cookieSecure,
    proxy: {
      userHeader: field('POTATOQ_CONSOLE_PROXY_USER_HEADER', ZHeaderName, opt(env.POTATOQ_CONSOLE_PROXY_USER_HEADER) ?? 'x-forwarded-user'),
      groupsHeader: field(
        'POTATOQ_CONSOLE_PROXY_GROUPS_HEADER',
        ZHeaderName,
        opt(env.POTATOQ_CONSOLE_PROXY_GROUPS_HEADER) ?? 'x-forwarded-groups',
      ),
      addresses,
      secret: proxySecret,
      secretHeader: field(
        'POTATOQ_CONSOLE_PROXY_SECRET_HEADER',
        ZHeaderName,
        opt(env.POTATOQ_CONSOLE_PROXY_SECRET_HEADER) ?? 'x-potatoq-proxy-secret',
      ),
      // No prototype: a group called `constructor` or `__proto__` must not find Object's members.
      roles: Object.assign(
        Object.create(null) as Record<string, Grant>,
        json('POTATOQ_CONSOLE_PROXY_ROLES', env.POTATOQ_CONSOLE_PROXY_ROLES, z.record(z.string(), ZGrant), { '*': 'viewer' }),
      ),
    },
    oidc: mode === 'oidc' ? parseOidcConfig(env) : null,
    tokens: tokens.map(({ hash, ...t }) => ({ ...t, digest: hash })),
    redactArgs: field('POTATOQ_CONSOLE_REDACT_ARGS', ZFlag, opt(env.POTATOQ_CONSOLE_REDACT_ARGS) ?? ''),
  };
}

let cached: AuthConfig | null = null;

export function getAuthConfig(): AuthConfig {
  cached ??= parseAuthConfig(consoleEnv());
  return cached;
}

/** Tests only. */
export function setAuthConfigForTests(c: AuthConfig | null): void {
  cached = c;
}
