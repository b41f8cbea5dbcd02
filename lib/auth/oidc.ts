import 'server-only';
import * as client from 'openid-client';
import { getAuthConfig, type Role } from './config';
import { cookieHeader, safeNext } from './login';
import type { OidcConfig } from './oidc-config';
import { FLOW_COOKIE, FLOW_SECONDS, flowCookieHeader, signFlow, verifyFlow } from './oidc-flow';
import { getAuditStore } from '@/lib/audit/store';
import { claimValues, mappedValues, oidcGrant, oidcUserName, reservedNameWhy, signOidcSession } from './oidc-session';
import { readCookie } from './session';

// Mode oidc's sign-in: authorization code with PKCE (S256), state and nonce, through
// openid-client, which checks the authorization response (state, `iss` when the provider
// sends it), and the ID token (signature from the provider's JWKS, issuer, audience, nonce,
// exp/iat with 30 s tolerance). The provider then refuses a code used twice or without its
// verifier. Route handlers in app/api/auth/oidc/* are thin wrappers around these two calls.

export type Refusal = { ok: false; status: 400 | 401 | 403 | 404 | 502; message: string; why: string };
export type Begun = { ok: true; location: string; flowCookie: string } | Refusal;
export type Finished = { ok: true; user: string; role: Role; next: string; sessionCookie: string } | Refusal;

const refuse = (status: Refusal['status'], message: string, why: string): Refusal => ({ ok: false, status, message, why });

let discovered: { key: string; config: Promise<client.Configuration> } | null = null;

/** The provider's metadata, discovered once per process (a failed discovery is tried again next time). */
function providerConfig(oidc: OidcConfig): Promise<client.Configuration> {
  const key = `${oidc.issuer.href}|${oidc.clientId}|${oidc.clientSecret ?? ''}`;
  if (discovered?.key !== key) {
    const config = client.discovery(
      oidc.issuer,
      oidc.clientId,
      oidc.clientSecret ? { client_secret: oidc.clientSecret } : {},
      oidc.clientSecret ? client.ClientSecretBasic(oidc.clientSecret) : client.None(),
      { execute: oidc.allowHttp ? [client.allowInsecureRequests] : [], timeout: 10 },
    );
    const entry = { key, config };
    discovered = entry;
    config.catch(() => {
      if (discovered === entry) discovered = null;
    });
  }
  return discovered.config;
}

function log(fields: Record<string, unknown>): void {
  console.info(JSON.stringify({ at: new Date().toISOString(), event: 'console.auth', via: 'oidc', ...fields }));
}

function settings(): { oidc: OidcConfig; secret: string; seconds: number } | null {
  const c = getAuthConfig();
  return c.mode === 'oidc' && c.oidc && c.sessionSecret ? { oidc: c.oidc, secret: c.sessionSecret, seconds: c.sessionSeconds } : null;
}

/** Starts a sign-in: the provider's authorization URL and the flow cookie that the callback checks. */
export async function beginOidcSignIn(next: string | null, secure: boolean): Promise<Begun> {
  const s = settings();
  if (!s) return refuse(404, 'This console does not sign in with an identity provider.', 'not-oidc');
  let config: client.Configuration;
  try {
    config = await providerConfig(s.oidc);
  } catch (e) {
    log({ outcome: 'provider-unreachable', error: (e as Error).message });
    return refuse(502, `${s.oidc.providerName} cannot be reached right now; try again in a moment.`, 'discovery');
  }
  const verifier = client.randomPKCECodeVerifier();
  const flow = {
    s: client.randomState(),
    n: client.randomNonce(),
    v: verifier,
    next: safeNext(next),
    exp: Math.floor(Date.now() / 1000) + FLOW_SECONDS,
  };
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: s.oidc.redirectUrl.href,
    scope: s.oidc.scopes,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state: flow.s,
    nonce: flow.n,
  });
  return { ok: true, location: url.href, flowCookie: flowCookieHeader(signFlow(s.secret, flow), secure) };
}

function explain(e: unknown, provider: string): Refusal {
  if (e instanceof client.AuthorizationResponseError)
    return refuse(401, `${provider} did not sign you in (${e.error}).`, `authorization-error:${e.error}`);
  if (e instanceof client.ResponseBodyError) {
    if (e.error === 'invalid_grant')
      return refuse(
        400,
        `${provider} refused the sign-in code: it was already used, has expired, or belongs to another sign-in. Start again.`,
        'invalid-grant',
      );
    return refuse(502, `${provider} refused to complete the sign-in (${e.error}).`, `token-error:${e.error}`);
  }
  if (e instanceof client.ClientError) {
    if (e.code === 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED')
      return refuse(401, `The ID token from ${provider} has expired (or its clock is wrong). Start again.`, 'id-token-expired');
    if (
      e.code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' ||
      e.code === 'OAUTH_INVALID_RESPONSE' ||
      e.code === 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED'
    ) {
      return refuse(401, `The answer from ${provider} failed validation. Start again.`, `invalid-response:${e.message}`);
    }
    if (e.code === 'OAUTH_TIMEOUT' || e.code === 'OAUTH_ABORT')
      return refuse(502, `${provider} cannot be reached right now; try again in a moment.`, `unreachable:${e.message}`);
  }
  // fetch() rejects with a TypeError when the provider cannot be reached; openid-client passes it on.
  if (e instanceof TypeError)
    return refuse(502, `${provider} cannot be reached right now; try again in a moment.`, `unreachable:${e.message}`);
  return refuse(401, `The sign-in with ${provider} could not be completed. Start again.`, `failed:${(e as Error)?.message ?? String(e)}`);
}

/**
 * Completes a sign-in on the provider's redirect: checks the flow cookie and state, exchanges
 * the code with the PKCE verifier, validates the ID token, reads the user info, maps the roles
 * claim; only a user with a role gets a session. `callbackUrl` is the request's URL: only its
 * query is used, the rest comes from the configured redirect URL (the Host header is not trusted).
 */
export async function finishOidcSignIn(callbackUrl: string, headers: Headers, secure: boolean): Promise<Finished> {
  const s = settings();
  if (!s) return refuse(404, 'This console does not sign in with an identity provider.', 'not-oidc');
  const { oidc } = s;
  const provider = oidc.providerName;
  let raw: string | null = null;
  try {
    raw = readCookie(headers.get('cookie'), FLOW_COOKIE);
  } catch {}
  const flow = raw ? verifyFlow(s.secret, raw) : null;
  const query = new URL(callbackUrl).searchParams;
  const done = (r: Refusal) => (log({ outcome: 'refused', why: r.why }), r);
  if (!flow)
    return done(
      refuse(
        400,
        `This sign-in was not started in this browser, or took longer than ${FLOW_SECONDS / 60} minutes. Start again.`,
        'no-flow',
      ),
    );
  if (query.get('state') !== flow.s)
    return done(
      refuse(
        400,
        'The sign-in answer does not belong to the sign-in this browser started (state mismatch). Start again.',
        'state-mismatch',
      ),
    );
  const current = new URL(oidc.redirectUrl);
  current.search = query.toString();
  let claims: Record<string, unknown>;
  let identity: { sub: string; iss: string };
  try {
    const config = await providerConfig(oidc);
    const tokens = await client.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: flow.v,
      expectedState: flow.s,
      expectedNonce: flow.n,
      idTokenExpected: true,
    });
    const id = tokens.claims();
    if (!id) return done(refuse(401, `${provider} sent no ID token.`, 'no-id-token'));
    // Providers that follow the spec strictly put profile and group claims in the user info
    // only (the ID token of a code flow carries what was asked by `claims`); the ID token wins.
    const info = config.serverMetadata().userinfo_endpoint ? await client.fetchUserInfo(config, tokens.access_token, id.sub) : {};
    claims = { ...info, ...id };
    identity = { sub: id.sub, iss: id.iss };
  } catch (e) {
    return done(explain(e, provider));
  }
  const user = oidcUserName(oidc, claims);
  if (!user) return done(refuse(400, `${provider} sent no usable user name (${oidc.userClaims.join(', ')}).`, 'no-user-name'));
  const values = claimValues(claims, oidc.rolesClaim);
  const grant = oidcGrant(oidc, values);
  if (!grant) {
    log({ user, outcome: 'no-role', values: values.slice(0, 20) });
    return refuse(
      403,
      `${user} is signed in at ${provider} but is in no group with access to this console. Ask an administrator to map one of your groups in POTATOQ_CONSOLE_OIDC_ROLES.`,
      'no-role',
    );
  }
  // Bound only once the user has access: an account without a role cannot claim a name.
  const taken = await nameTaken(user, identity, provider, oidc.userClaims);
  if (taken) return done(taken);
  log({ user, sub: identity.sub, iss: identity.iss, role: grant.role, outcome: 'signed-in' });
  const value = signOidcSession(s.secret, oidc, user, mappedValues(oidc, values), s.seconds, undefined, identity);
  return { ok: true, user, role: grant.role, next: safeNext(flow.next), sessionCookie: cookieHeader(value, s.seconds, secure) };
}

/**
 * A name the console cannot give this identity: one reserved for its own principals, or one
 * already bound (in the state store, first sign-in wins) to another subject or issuer.
 */
async function nameTaken(
  user: string,
  identity: { sub: string; iss: string },
  provider: string,
  claims: string[],
): Promise<Refusal | null> {
  const fix = `An administrator can change which claim names users (POTATOQ_CONSOLE_OIDC_USER_CLAIM, now ${claims.join(', ')}).`;
  const reserved = reservedNameWhy(user);
  if (reserved)
    return refuse(
      403,
      `${provider} names you ${JSON.stringify(user)}, which the console cannot give a person: ${reserved}. ${fix}`,
      'reserved-name',
    );
  let bound;
  try {
    const store = await getAuditStore();
    if (!store.bindIdentity) return null;
    bound = await store.bindIdentity({ name: user, issuer: identity.iss, subject: identity.sub });
  } catch (e) {
    log({ outcome: 'state-store-unavailable', error: (e as Error).message });
    return refuse(
      502,
      'The console cannot check who you are right now (its state store is unavailable); try again in a moment.',
      'state-store',
    );
  }
  if (bound.subject === identity.sub && bound.issuer === identity.iss) return null;
  log({ user, sub: identity.sub, iss: identity.iss, outcome: 'name-taken' });
  return refuse(
    403,
    `${provider} names you ${JSON.stringify(user)}, but that name already belongs to another account (another subject at the identity provider) on this console. ${fix}`,
    'name-taken',
  );
}
