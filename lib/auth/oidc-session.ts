import 'server-only';
import type { AuthConfig, Grant } from './config';
import type { OidcConfig } from './oidc-config';
import { combineGrants, type Resolution } from './grants';
import { SESSION_COOKIE, fingerprint, readCookie, signSession, verifySession, type SessionClaims } from './session';

// Mode oidc: from the provider's claims to a grant, and the console session that follows a
// sign-in. The session is the accounts-mode cookie (HMAC-signed, HttpOnly, SameSite=Lax) with
// the user's mapped claim values in `g`; the grant is worked out again from them on every
// request, so a change of POTATOQ_CONSOLE_OIDC_ROLES applies at once.

export interface OidcSessionClaims extends SessionClaims {
  /** The user's roles-claim values that the mapping names, at sign-in. */
  g: string[];
  /** The ID token's `sub` and `iss`: who the user is at the provider (the name alone is not). */
  s?: string;
  i?: string;
}

/**
 * Why a user name from the provider cannot be a console user, or null. Other callers' names
 * are reserved: API tokens act as `token:<name>` (so no name with a `:` at all, whatever a
 * later mode makes of it) and every caller is `anonymous` when sign-in is off.
 */
export function reservedNameWhy(name: string): string | null {
  if (name.includes(':')) return `"${name}" has a ":", which only the console's own principals (API tokens: token:<name>) have`;
  if (name.normalize('NFKC').toLowerCase() === 'anonymous') return '"anonymous" is the name of every caller when sign-in is off';
  return null;
}

/** The most values a session keeps (a provider may send hundreds of groups; a cookie holds 4 KB). */
const MAX_VALUES = 50;
/** Control, format (bidi, zero-width) and separator characters: not in a user name. */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

const own = (o: unknown, k: string): unknown =>
  o !== null && typeof o === 'object' && Object.hasOwn(o, k) ? (o as Record<string, unknown>)[k] : undefined;

/**
 * Values of a claim: a string, or the strings of a list. A dotted name reaches a nested claim
 * (Keycloak's `realm_access.roles`) when no claim has the full name (Auth0's are URLs).
 */
export function claimValues(claims: Record<string, unknown>, name: string): string[] {
  let v = own(claims, name);
  if (v === undefined && name.includes('.')) v = name.split('.').reduce<unknown>((o, k) => own(o, k), claims);
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string');
  return [];
}

/** Grant for these claim values plus `*`; the most permissive wins (as in proxy mode); null = no access. */
export function oidcGrant(oidc: OidcConfig, values: readonly string[]): Grant | null {
  return combineGrants([...values, '*'].flatMap((v) => oidc.roles.get(v) ?? []));
}

/** The values the session keeps: only those the mapping names. */
export function mappedValues(oidc: OidcConfig, values: readonly string[]): string[] {
  return [...new Set(values)].filter((v) => v !== '*' && oidc.roles.has(v)).slice(0, MAX_VALUES);
}

/**
 * The first configured user-name claim holding printable text (at most 200 characters), or
 * null. An email the provider says is unverified is skipped: anyone could have typed it.
 */
export function oidcUserName(oidc: OidcConfig, claims: Record<string, unknown>): string | null {
  for (const name of oidc.userClaims) {
    if (name === 'email' && own(claims, 'email_verified') === false) continue;
    const v = own(claims, name);
    if (typeof v === 'string' && v.trim() && v.trim().length <= 200 && !UNPRINTABLE.test(v)) return v.trim();
  }
  return null;
}

/** Ties sessions to one provider and client: switching either (or the mode) ends them. */
const oidcFingerprint = (secret: string, oidc: OidcConfig) => fingerprint(secret, `oidc:${oidc.issuer.href}|${oidc.clientId}`);

export function signOidcSession(
  secret: string,
  oidc: OidcConfig,
  user: string,
  values: string[],
  seconds: number,
  now = Math.floor(Date.now() / 1000),
  identity?: { sub: string; iss: string },
): string {
  const claims: OidcSessionClaims = { u: user, f: oidcFingerprint(secret, oidc), iat: now, exp: now + seconds, g: values };
  if (identity) Object.assign(claims, { s: identity.sub, i: identity.iss });
  return signSession(secret, claims);
}

export function fromOidcSession(config: AuthConfig, headers: Headers): Resolution {
  const oidc = config.oidc;
  const cookie = readCookie(headers.get('cookie'), SESSION_COOKIE);
  if (!cookie || !config.sessionSecret || !oidc) return { ok: false, code: 'Unauthorized', reason: 'sign in first' };
  const claims = verifySession(config.sessionSecret, cookie) as (SessionClaims & { g?: unknown; s?: unknown; i?: unknown }) | null;
  if (!claims) return { ok: false, code: 'Unauthorized', reason: 'session expired or invalid; sign in again' };
  const g = claims.g;
  if (
    claims.f !== oidcFingerprint(config.sessionSecret, oidc) ||
    !Array.isArray(g) ||
    !g.every((v): v is string => typeof v === 'string')
  ) {
    return { ok: false, code: 'Unauthorized', reason: 'session no longer valid; sign in again' };
  }
  const grant = oidcGrant(oidc, g);
  if (!grant) return { ok: false, code: 'Forbidden', reason: `${claims.u} is in no group with access to this console` };
  const identity = typeof claims.s === 'string' && typeof claims.i === 'string' ? { sub: claims.s, iss: claims.i } : {};
  return {
    ok: true,
    principal: { user: claims.u, role: grant.role, via: 'oidc', readOnlyBrokers: grant.readOnlyBrokers, groups: g, ...identity },
  };
}
