import 'server-only';
import { z } from 'zod';
import { ConfigError } from '@/lib/config-error';
import { rememberSecret } from '@/lib/text/secrets';
import { isLoopback } from './address';
import { ZGrant, field, json, opt, type Grant } from './config-fields';

// Settings of mode `oidc` (sign-in with the team's OpenID Connect provider), parsed at boot by
// parseAuthConfig only in that mode.

export const OIDC_CALLBACK_PATH = '/api/auth/oidc/callback';

export interface OidcConfig {
  /** The issuer identifier; discovery reads `<issuer>/.well-known/openid-configuration`. */
  issuer: URL;
  /** Plain-HTTP issuer, allowed on loopback only (a local provider, the tests). */
  allowHttp: boolean;
  clientId: string;
  /** Null for a public client (PKCE only, no client authentication). Never sent to a browser. */
  clientSecret: string | null;
  /** Where the provider sends the browser back; from the settings, never from the Host header. */
  redirectUrl: URL;
  scopes: string;
  /** Shown on the sign-in button: "Sign in with <providerName>". */
  providerName: string;
  /** Claim whose values (a string or a list of strings) are looked up in `roles`. */
  rolesClaim: string;
  /** Claims tried in order for the user name shown and audited; `sub` is always the last. */
  userClaims: string[];
  /** Claim value → grant, as POTATOQ_CONSOLE_PROXY_ROLES; `*` = everyone the provider signs in. */
  roles: Map<string, Grant>;
}

const isLocal = (u: URL) => isLoopback(u.hostname);

function url(name: string, raw: string, what: string): URL {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ConfigError(`${name}: must be an absolute URL (${what})`);
  }
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && isLocal(u)))
    throw new ConfigError(`${name}: must use https (plain http only on a loopback host)`);
  if (u.search || u.hash) throw new ConfigError(`${name}: must not have a query or fragment`);
  if (u.username || u.password) throw new ConfigError(`${name}: must not carry credentials`);
  return u;
}

function required(env: Record<string, string | undefined>, name: string): string {
  const v = opt(env[name]);
  if (!v) throw new ConfigError(`${name}: required in oidc mode`);
  return v;
}

/** Parses the oidc-mode settings; call only when POTATOQ_CONSOLE_AUTH=oidc. */
export function parseOidcConfig(env: Record<string, string | undefined>): OidcConfig {
  if (!opt(env.POTATOQ_CONSOLE_SESSION_SECRET))
    throw new ConfigError('POTATOQ_CONSOLE_SESSION_SECRET: required in oidc mode (32+ random characters)');
  const issuer = url(
    'POTATOQ_CONSOLE_OIDC_ISSUER',
    required(env, 'POTATOQ_CONSOLE_OIDC_ISSUER'),
    'the issuer, e.g. https://accounts.google.com',
  );
  const clientId = field('POTATOQ_CONSOLE_OIDC_CLIENT_ID', z.string().max(500), required(env, 'POTATOQ_CONSOLE_OIDC_CLIENT_ID'));
  const rawRedirect = opt(env.POTATOQ_CONSOLE_OIDC_REDIRECT_URL);
  const publicUrl = opt(env.POTATOQ_CONSOLE_PUBLIC_URL);
  let redirectUrl: URL;
  if (rawRedirect)
    redirectUrl = url('POTATOQ_CONSOLE_OIDC_REDIRECT_URL', rawRedirect, `the console's ${OIDC_CALLBACK_PATH} as the browser reaches it`);
  else if (publicUrl)
    redirectUrl = new URL(
      OIDC_CALLBACK_PATH,
      url('POTATOQ_CONSOLE_PUBLIC_URL', publicUrl.replace(/\/+$/, '/'), 'the address users open, e.g. https://queues.example.com'),
    );
  else
    throw new ConfigError(
      'POTATOQ_CONSOLE_OIDC_REDIRECT_URL: oidc mode needs the redirect URL, or POTATOQ_CONSOLE_PUBLIC_URL to derive it from',
    );
  const scopes = field(
    'POTATOQ_CONSOLE_OIDC_SCOPES',
    z
      .string()
      .transform((s) => s.split(/[\s,]+/).filter(Boolean))
      .pipe(
        z
          .array(z.string().regex(/^[\x21\x23-\x5B\x5D-\x7E]+$/, 'a scope has no spaces or quotes'))
          .refine((s) => s.includes('openid'), 'must include openid'),
      )
      .transform((s) => [...new Set(s)].join(' ')),
    opt(env.POTATOQ_CONSOLE_OIDC_SCOPES) ?? 'openid profile email',
  );
  const claimName = z
    .string()
    .min(1)
    .max(200)
    .regex(/^[^\s,]+$/, 'a claim name has no spaces or commas');
  const userClaims = field(
    'POTATOQ_CONSOLE_OIDC_USER_CLAIM',
    z.array(claimName).min(1),
    (opt(env.POTATOQ_CONSOLE_OIDC_USER_CLAIM) ?? 'preferred_username,email').split(',').map((s) => s.trim()),
  );
  const rawRoles = opt(env.POTATOQ_CONSOLE_OIDC_ROLES);
  // No default: with a public provider (Google), `*` would let anyone with an account in.
  if (!rawRoles)
    throw new ConfigError(
      'POTATOQ_CONSOLE_OIDC_ROLES: required in oidc mode, e.g. {"ops":"operator","devs":"viewer"} (`*` = everyone the provider signs in)',
    );
  const roles = json('POTATOQ_CONSOLE_OIDC_ROLES', rawRoles, z.record(z.string(), ZGrant), {});
  const clientSecret = opt(env.POTATOQ_CONSOLE_OIDC_CLIENT_SECRET) ?? null;
  // Hidden wherever it shows up in a message or a log line (lib/text/secrets.ts).
  rememberSecret(clientSecret);
  return {
    issuer,
    allowHttp: issuer.protocol === 'http:',
    clientId,
    clientSecret,
    redirectUrl,
    scopes,
    providerName: field(
      'POTATOQ_CONSOLE_OIDC_NAME',
      z.string().max(60, 'at most 60 characters'),
      opt(env.POTATOQ_CONSOLE_OIDC_NAME) ?? issuer.hostname,
    ),
    rolesClaim: field('POTATOQ_CONSOLE_OIDC_ROLES_CLAIM', claimName, opt(env.POTATOQ_CONSOLE_OIDC_ROLES_CLAIM) ?? 'groups'),
    userClaims: userClaims.includes('sub') ? userClaims : [...userClaims, 'sub'],
    // A Map: a claim value such as `__proto__` or `constructor` finds nothing it was not given.
    roles: new Map(Object.entries(roles)),
  };
}
