import { describe, expect, it } from 'vitest';
import { parseAuthConfig, type AuthConfig } from './config';
import { FLOW_COOKIE, flowCookieHeader, signFlow, verifyFlow, type Flow } from './oidc-flow';
import { claimValues, mappedValues, oidcGrant, oidcUserName, reservedNameWhy, signOidcSession } from './oidc-session';
import { resolveFromHeaders } from './resolve';
import { SESSION_COOKIE, signSession, verifySession } from './session';
import { TEST_HASH, TEST_SECRET, sessionCookie } from '@/tests/support/auth';

const BASE = {
  POTATOQ_CONSOLE_AUTH: 'oidc',
  POTATOQ_CONSOLE_SESSION_SECRET: TEST_SECRET,
  POTATOQ_CONSOLE_OIDC_ISSUER: 'https://idp.example.com',
  POTATOQ_CONSOLE_OIDC_CLIENT_ID: 'console',
  POTATOQ_CONSOLE_OIDC_CLIENT_SECRET: 'client-secret-1234',
  POTATOQ_CONSOLE_PUBLIC_URL: 'https://queues.example.com',
  POTATOQ_CONSOLE_OIDC_ROLES: JSON.stringify({
    ops: { role: 'operator', readOnlyBrokers: ['prod', 'eu'] },
    sre: { role: 'operator', readOnlyBrokers: ['prod'] },
    staff: 'viewer',
  }),
};
const oidcConfig = (over: Record<string, string> = {}): AuthConfig => parseAuthConfig({ ...BASE, ...over });
const oidcOf = (c: AuthConfig) => c.oidc!;

describe('oidc settings', () => {
  it('reads the settings with their defaults and derives the redirect URL from the public URL', () => {
    const o = oidcOf(oidcConfig());
    expect(o.issuer.href).toBe('https://idp.example.com/');
    expect(o.redirectUrl.href).toBe('https://queues.example.com/api/auth/oidc/callback');
    expect(o).toMatchObject({
      clientId: 'console',
      clientSecret: 'client-secret-1234',
      scopes: 'openid profile email',
      rolesClaim: 'groups',
      providerName: 'idp.example.com',
      allowHttp: false,
    });
    expect(o.userClaims).toEqual(['preferred_username', 'email', 'sub']);
    expect(o.roles.get('staff')).toEqual({ role: 'viewer', readOnlyBrokers: [] });
    expect(parseAuthConfig({}).oidc).toBeNull();
  });
  it('takes an explicit redirect URL, scopes, claims and name; a public client has no secret', () => {
    const o = oidcOf(
      oidcConfig({
        POTATOQ_CONSOLE_OIDC_CLIENT_SECRET: '',
        POTATOQ_CONSOLE_OIDC_REDIRECT_URL: 'https://edge.example.com/console/api/auth/oidc/callback',
        POTATOQ_CONSOLE_OIDC_SCOPES: 'openid, email groups groups',
        POTATOQ_CONSOLE_OIDC_ROLES_CLAIM: 'realm_access.roles',
        POTATOQ_CONSOLE_OIDC_USER_CLAIM: 'email',
        POTATOQ_CONSOLE_OIDC_NAME: 'Okta',
      }),
    );
    expect(o.clientSecret).toBeNull();
    expect(o.redirectUrl.href).toBe('https://edge.example.com/console/api/auth/oidc/callback');
    expect(o).toMatchObject({
      scopes: 'openid email groups',
      rolesClaim: 'realm_access.roles',
      userClaims: ['email', 'sub'],
      providerName: 'Okta',
    });
  });
  it('allows plain http only for a loopback issuer or redirect URL', () => {
    expect(
      oidcOf(oidcConfig({ POTATOQ_CONSOLE_OIDC_ISSUER: 'http://127.0.0.1:4000', POTATOQ_CONSOLE_PUBLIC_URL: 'http://localhost:3000' }))
        .allowHttp,
    ).toBe(true);
    expect(() => oidcConfig({ POTATOQ_CONSOLE_OIDC_ISSUER: 'http://idp.example.com' })).toThrow(
      /^POTATOQ_CONSOLE_OIDC_ISSUER: must use https/,
    );
    expect(() => oidcConfig({ POTATOQ_CONSOLE_PUBLIC_URL: 'http://queues.example.com' })).toThrow(
      /^POTATOQ_CONSOLE_PUBLIC_URL: must use https/,
    );
  });
  it('names the variable of a missing or bad value', () => {
    const without = (k: keyof typeof BASE) => ({ ...BASE, [k]: '' });
    expect(() => parseAuthConfig(without('POTATOQ_CONSOLE_SESSION_SECRET'))).toThrow(
      /^POTATOQ_CONSOLE_SESSION_SECRET: required in oidc mode/,
    );
    expect(() => parseAuthConfig(without('POTATOQ_CONSOLE_OIDC_ISSUER'))).toThrow(/^POTATOQ_CONSOLE_OIDC_ISSUER: required in oidc mode/);
    expect(() => parseAuthConfig(without('POTATOQ_CONSOLE_OIDC_CLIENT_ID'))).toThrow(/^POTATOQ_CONSOLE_OIDC_CLIENT_ID: required/);
    expect(() => parseAuthConfig(without('POTATOQ_CONSOLE_PUBLIC_URL'))).toThrow(
      /^POTATOQ_CONSOLE_OIDC_REDIRECT_URL: oidc mode needs the redirect URL/,
    );
    expect(() => parseAuthConfig(without('POTATOQ_CONSOLE_OIDC_ROLES'))).toThrow(/^POTATOQ_CONSOLE_OIDC_ROLES: required in oidc mode/);
    expect(() => oidcConfig({ POTATOQ_CONSOLE_OIDC_ISSUER: 'idp.example.com' })).toThrow(
      /^POTATOQ_CONSOLE_OIDC_ISSUER: must be an absolute URL/,
    );
    expect(() => oidcConfig({ POTATOQ_CONSOLE_OIDC_ISSUER: 'https://idp.example.com/?tenant=1' })).toThrow(
      /^POTATOQ_CONSOLE_OIDC_ISSUER: must not have a query/,
    );
    expect(() => oidcConfig({ POTATOQ_CONSOLE_OIDC_REDIRECT_URL: 'https://u:p@queues.example.com/cb' })).toThrow(
      /^POTATOQ_CONSOLE_OIDC_REDIRECT_URL: must not carry credentials/,
    );
    expect(() => oidcConfig({ POTATOQ_CONSOLE_OIDC_SCOPES: 'profile email' })).toThrow(/^POTATOQ_CONSOLE_OIDC_SCOPES: must include openid/);
    expect(() => oidcConfig({ POTATOQ_CONSOLE_OIDC_ROLES: '{"ops":"admin"}' })).toThrow(/^POTATOQ_CONSOLE_OIDC_ROLES\[ops\]/);
    expect(() => oidcConfig({ POTATOQ_CONSOLE_OIDC_ROLES: '{nope' })).toThrow(/^POTATOQ_CONSOLE_OIDC_ROLES: not valid JSON/);
    expect(() => oidcConfig({ POTATOQ_CONSOLE_OIDC_ROLES_CLAIM: 'my groups' })).toThrow(/^POTATOQ_CONSOLE_OIDC_ROLES_CLAIM/);
  });
  it('does not read oidc settings in other modes', () => {
    expect(parseAuthConfig({ POTATOQ_CONSOLE_OIDC_ISSUER: 'not a url' }).oidc).toBeNull();
  });
});

describe('oidc claims to grants', () => {
  const o = oidcOf(oidcConfig());
  it('reads a string, a list or a nested claim', () => {
    expect(claimValues({ groups: ['ops', 3, 'staff'] }, 'groups')).toEqual(['ops', 'staff']);
    expect(claimValues({ groups: 'ops' }, 'groups')).toEqual(['ops']);
    expect(claimValues({ realm_access: { roles: ['ops'] } }, 'realm_access.roles')).toEqual(['ops']);
    expect(claimValues({ 'https://example.com/groups': ['ops'] }, 'https://example.com/groups')).toEqual(['ops']);
    expect(claimValues({}, 'groups')).toEqual([]);
    expect(claimValues({ groups: { ops: true } }, 'groups')).toEqual([]);
  });
  it('grants the most permissive role; read-only brokers of operator grants intersect', () => {
    expect(oidcGrant(o, ['staff'])).toEqual({ role: 'viewer', readOnlyBrokers: [] });
    expect(oidcGrant(o, ['staff', 'ops'])).toEqual({ role: 'operator', readOnlyBrokers: ['prod', 'eu'] });
    expect(oidcGrant(o, ['ops', 'sre'])).toEqual({ role: 'operator', readOnlyBrokers: ['prod'] });
  });
  it('grants nothing for unmapped values, prototype names included, unless `*` is mapped', () => {
    expect(oidcGrant(o, ['contractors', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'])).toBeNull();
    const everyone = oidcOf(oidcConfig({ POTATOQ_CONSOLE_OIDC_ROLES: '{"*":"viewer","ops":"operator"}' }));
    expect(oidcGrant(everyone, ['contractors'])).toEqual({ role: 'viewer', readOnlyBrokers: [] });
    expect(oidcGrant(everyone, ['ops'])?.role).toBe('operator');
  });
  it('keeps only mapped values for the session', () => {
    expect(mappedValues(o, ['a', 'ops', 'ops', '*', 'staff', 'constructor'])).toEqual(['ops', 'staff']);
  });
  it('takes the first usable user-name claim; unprintable names fall through to sub', () => {
    expect(oidcUserName(o, { preferred_username: ' olga ', email: 'o@x', sub: '1' })).toBe('olga');
    expect(oidcUserName(o, { email: 'o@x', sub: '1' })).toBe('o@x');
    expect(oidcUserName(o, { preferred_username: 'ad\u202Emin', sub: '1' })).toBe('1');
    expect(oidcUserName(o, { preferred_username: 'a\u200Bb', email: 'x'.repeat(201), sub: '1' })).toBe('1');
    expect(oidcUserName(o, { sub: '' })).toBeNull();
    expect(oidcUserName(o, { email: 'olga@x', email_verified: false, sub: '1' })).toBe('1');
    expect(oidcUserName(o, { email: 'olga@x', email_verified: true, sub: '1' })).toBe('olga@x');
  });
});

describe('oidc sessions', () => {
  const config = oidcConfig();
  const o = oidcOf(config);
  const cookie = (value: string) => new Headers({ cookie: `${SESSION_COOKIE}=${value}` });

  it('resolves a session to the grant of its claim values, worked out on each request', () => {
    const value = signOidcSession(TEST_SECRET, o, 'olga', ['ops'], 3600);
    expect(resolveFromHeaders(config, cookie(value))).toEqual({
      ok: true,
      principal: { user: 'olga', role: 'operator', via: 'oidc', readOnlyBrokers: ['prod', 'eu'], groups: ['ops'] },
    });
    const demoted = oidcConfig({ POTATOQ_CONSOLE_OIDC_ROLES: '{"ops":"viewer"}' });
    expect(resolveFromHeaders(demoted, cookie(value))).toMatchObject({ ok: true, principal: { role: 'viewer' } });
    const removed = oidcConfig({ POTATOQ_CONSOLE_OIDC_ROLES: '{"staff":"viewer"}' });
    expect(resolveFromHeaders(removed, cookie(value))).toMatchObject({ ok: false, code: 'Forbidden' });
  });
  it('refuses no cookie, an expired one, one for another provider or client, and an accounts-mode cookie', () => {
    expect(resolveFromHeaders(config, new Headers())).toMatchObject({ ok: false, code: 'Unauthorized' });
    const old = signOidcSession(TEST_SECRET, o, 'olga', ['ops'], 60, Math.floor(Date.now() / 1000) - 3600);
    expect(resolveFromHeaders(config, cookie(old))).toMatchObject({
      ok: false,
      code: 'Unauthorized',
      reason: expect.stringMatching(/expired/),
    });
    const value = signOidcSession(TEST_SECRET, o, 'olga', ['ops'], 3600);
    expect(resolveFromHeaders(oidcConfig({ POTATOQ_CONSOLE_OIDC_CLIENT_ID: 'other' }), cookie(value))).toMatchObject({
      ok: false,
      code: 'Unauthorized',
    });
    expect(resolveFromHeaders(oidcConfig({ POTATOQ_CONSOLE_OIDC_ISSUER: 'https://other.example.com' }), cookie(value))).toMatchObject({
      ok: false,
      code: 'Unauthorized',
    });
    expect(resolveFromHeaders(config, new Headers({ cookie: sessionCookie('olga', TEST_HASH) }))).toMatchObject({
      ok: false,
      code: 'Unauthorized',
    });
  });
  it('refuses claim values that were not signed, or are not strings', () => {
    const value = signOidcSession(TEST_SECRET, o, 'vic', ['staff'], 3600);
    const [body] = value.split('.');
    const claims = JSON.parse(Buffer.from(body!, 'base64url').toString());
    const tampered = `${Buffer.from(JSON.stringify({ ...claims, g: ['ops'] })).toString('base64url')}.${value.split('.')[1]}`;
    expect(resolveFromHeaders(config, cookie(tampered))).toMatchObject({ ok: false, code: 'Unauthorized' });
    const odd = signSession(TEST_SECRET, { ...verifySession(TEST_SECRET, value)!, g: [1] } as never);
    expect(resolveFromHeaders(config, cookie(odd))).toMatchObject({ ok: false, code: 'Unauthorized' });
  });
});

describe('the oidc flow cookie', () => {
  const flow: Flow = { s: 'state', n: 'nonce', v: 'verifier', next: '/brokers/a', exp: Math.floor(Date.now() / 1000) + 600 };
  it('round-trips, and refuses a tampered, expired or foreign-secret value', () => {
    const v = signFlow(TEST_SECRET, flow);
    expect(verifyFlow(TEST_SECRET, v)).toEqual(flow);
    expect(verifyFlow('x'.repeat(32), v)).toBeNull();
    expect(verifyFlow(TEST_SECRET, v, flow.exp + 1)).toBeNull();
    const forged = `${Buffer.from(JSON.stringify({ ...flow, s: 'attacker' })).toString('base64url')}.${v.split('.')[1]}`;
    expect(verifyFlow(TEST_SECRET, forged)).toBeNull();
    expect(verifyFlow(TEST_SECRET, '%')).toBeNull();
  });
  it('is not interchangeable with a session cookie (same secret, different labels)', () => {
    const session = signSession(TEST_SECRET, { u: 'olga', f: 'x', iat: 1, exp: flow.exp });
    expect(verifyFlow(TEST_SECRET, session)).toBeNull();
    expect(verifySession(TEST_SECRET, signFlow(TEST_SECRET, flow))).toBeNull();
  });
  it('is HttpOnly, SameSite=Lax, scoped to the oidc routes and short-lived', () => {
    expect(flowCookieHeader('v', true)).toBe(`${FLOW_COOKIE}=v; Path=/api/auth/oidc; HttpOnly; SameSite=Lax; Max-Age=600; Secure`);
    expect(flowCookieHeader('', false)).toBe(`${FLOW_COOKIE}=; Path=/api/auth/oidc; HttpOnly; SameSite=Lax; Max-Age=0`);
  });
});

describe('oidc user names', () => {
  it.each(['token:ci', 'token:', 'ci:token', 'olga:admin', 'anonymous', 'Anonymous', 'ＡＮＯＮＹＭＯＵＳ'])(
    'refuses %s: a name the console gives its own principals',
    (name) => {
      expect(reservedNameWhy(name)).toEqual(expect.any(String));
    },
  );
  it.each(['olga', 'olga@example.test', 'Olga Petrova', 'token', 'anon', 'a.b-c_d'])('accepts %s', (name) => {
    expect(reservedNameWhy(name)).toBeNull();
  });

  it('keeps the subject and issuer in the session and gives them to the principal; older sessions have neither', () => {
    const config = oidcConfig();
    const now = Math.floor(Date.now() / 1000);
    const identity = { sub: 'a1b2', iss: 'https://idp.example.com/' };
    const cookie = (v: string) => new Headers({ cookie: `${SESSION_COOKIE}=${v}` });
    const withId = signOidcSession(TEST_SECRET, oidcOf(config), 'olga', ['ops'], 3600, now, identity);
    expect(resolveFromHeaders(config, cookie(withId))).toMatchObject({ ok: true, principal: { user: 'olga', ...identity } });
    const old = signOidcSession(TEST_SECRET, oidcOf(config), 'olga', ['ops'], 3600, now);
    const r = resolveFromHeaders(config, cookie(old));
    expect(r.ok && r.principal.sub).toBeUndefined();
  });
});
