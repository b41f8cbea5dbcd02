import 'server-only';
import { timingSafeEqual } from 'node:crypto';
import type { AuthConfig, Grant } from './config';
import { combineGrants, type Principal, type Resolution } from './grants';
import { fromOidcSession } from './oidc-session';
import { tokenDigest } from './password';
import { peerAddress } from './peer';
import { SESSION_COOKIE, fingerprint, readCookie, verifySession } from './session';

// Who is asking, from the request headers alone (so the proxy, route handlers, server actions
// and pages all answer the same way). Pure given the configuration.

export { combineGrants, type Principal, type Resolution };

const no = (code: 'Unauthorized' | 'Forbidden', reason: string): Resolution => ({ ok: false, code, reason });

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The grant configured for one group, looked up as an own key only (never `toString`, `__proto__`, …). */
export function grantsOf(roles: Record<string, Grant>, group: string): Grant[] {
  const g = Object.hasOwn(roles, group) ? roles[group] : undefined;
  return g && typeof g === 'object' && (g.role === 'viewer' || g.role === 'operator') ? [g] : [];
}

function fromToken(config: AuthConfig, token: string): Resolution {
  const digest = tokenDigest(token);
  const t = config.tokens.find((x) => sameSecret(x.digest, digest));
  if (!t) return no('Unauthorized', 'unknown API token');
  return { ok: true, principal: { user: `token:${t.name}`, role: t.role, via: 'token', readOnlyBrokers: t.readOnlyBrokers } };
}

function fromSession(config: AuthConfig, headers: Headers): Resolution {
  const cookie = readCookie(headers.get('cookie'), SESSION_COOKIE);
  if (!cookie || !config.sessionSecret) return no('Unauthorized', 'sign in first');
  const claims = verifySession(config.sessionSecret, cookie);
  if (!claims) return no('Unauthorized', 'session expired or invalid; sign in again');
  const account = config.accounts.find((a) => a.user === claims.u);
  if (!account || fingerprint(config.sessionSecret, account.hash) !== claims.f)
    return no('Unauthorized', 'session no longer valid; sign in again');
  return { ok: true, principal: { user: account.user, role: account.role, via: 'session', readOnlyBrokers: account.readOnlyBrokers } };
}

function fromProxy(config: AuthConfig, headers: Headers): Resolution {
  const p = config.proxy;
  const user = headers.get(p.userHeader)?.trim();
  const secret = headers.get(p.secretHeader);
  const peer = peerAddress(headers);
  const trusted =
    (p.secret !== null && secret !== null && sameSecret(secret, p.secret)) || (p.addresses !== null && peer !== null && p.addresses(peer));
  if (!trusted)
    return no('Unauthorized', user ? 'identity header not from the trusted proxy' : 'not signed in through the authenticating proxy');
  if (!user) return no('Unauthorized', 'the proxy sent no user');
  const groups = (headers.get(p.groupsHeader) ?? '')
    .split(',')
    .map((g) => g.trim())
    .filter(Boolean);
  const grant = combineGrants([...groups, '*'].flatMap((g) => grantsOf(p.roles, g)));
  if (!grant) return no('Forbidden', `${user} is in no group with access to this console`);
  return { ok: true, principal: { user, role: grant.role, via: 'proxy', readOnlyBrokers: grant.readOnlyBrokers, groups } };
}

/**
 * Who is asking, for every page, API and action. A `metrics` token is refused here (403): it
 * may read `/metrics` only, which asks resolveScraper instead.
 */
export function resolveFromHeaders(config: AuthConfig, headers: Headers): Resolution {
  const r = resolveAny(config, headers);
  if (r.ok && r.principal.role === 'metrics')
    return no('Forbidden', `${r.principal.user} is a metrics token: it may read /metrics and nothing else`);
  return r;
}

/** Who may read `/metrics`: anyone resolveFromHeaders accepts, and `metrics` tokens. */
export function resolveScraper(config: AuthConfig, headers: Headers): Resolution {
  return resolveAny(config, headers);
}

function resolveAny(config: AuthConfig, headers: Headers): Resolution {
  const authz = headers.get('authorization');
  if (authz !== null) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authz);
    if (!m) return no('Unauthorized', 'Authorization must be "Bearer <token>"');
    return fromToken(config, m[1]!);
  }
  switch (config.mode) {
    case 'none':
      return { ok: true, principal: { user: 'anonymous', role: 'operator', via: 'none', readOnlyBrokers: [] } };
    case 'accounts':
      return fromSession(config, headers);
    case 'proxy':
      return fromProxy(config, headers);
    case 'oidc':
      return fromOidcSession(config, headers);
    default: {
      const never: never = config.mode;
      return never;
    }
  }
}

/** May this principal change data on this broker (before the broker's own read-only flag)? */
export function mayWrite(p: Principal, brokerId: string): boolean {
  return p.role === 'operator' && !p.readOnlyBrokers.includes(brokerId);
}
