import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseAuthConfig } from './config';
import { hashPassword, newToken, tokenDigest, verifyPassword } from './password';
import { PEER_HEADER, installPeerTagging } from './peer';
import { combineGrants, mayWrite, resolveFromHeaders } from './resolve';
import { signSession, verifySession } from './session';
import { OPERATOR_TOKEN, accountsConfig, sessionCookie } from '@/tests/support/auth';

const h = (init: Record<string, string>) => new Headers(init);

describe('passwords and tokens', () => {
  it('verifies an scrypt hash, including one made by the hash-password CLI', async () => {
    const hash = await hashPassword('correct horse');
    await expect(verifyPassword('correct horse', hash)).resolves.toBe(true);
    await expect(verifyPassword('wrong horse', hash)).resolves.toBe(false);
    const cli = execFileSync('node', ['scripts/hash-password.mjs'], { input: 'from the cli', encoding: 'utf8' }).trim();
    await expect(verifyPassword('from the cli', cli)).resolves.toBe(true);
  });
  it('makes tokens whose digest is what the config stores', () => {
    const t = newToken();
    expect(t).toMatch(/^pqc_/);
    expect(tokenDigest(t)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});

describe('sessions', () => {
  it('refuses a tampered, expired or foreign-secret cookie', () => {
    const c = signSession('s'.repeat(32), { u: 'a', f: 'x', iat: 1, exp: 2_000_000_000 });
    expect(verifySession('s'.repeat(32), c)).toMatchObject({ u: 'a' });
    expect(verifySession('t'.repeat(32), c)).toBeNull();
    const [body, sig] = c.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify({ u: 'admin', f: 'x', iat: 1, exp: 2_000_000_000 })).toString('base64url');
    expect(verifySession('s'.repeat(32), `${forged}.${sig}`)).toBeNull();
    expect(verifySession('s'.repeat(32), `${body}.${sig}`, 2_000_000_001)).toBeNull();
  });
  it('ends a session when the account’s password hash changes or the account is removed', () => {
    const cookie = sessionCookie('olga');
    expect(resolveFromHeaders(accountsConfig(), h({ cookie }))).toMatchObject({
      ok: true,
      principal: { user: 'olga', role: 'operator', via: 'session' },
    });
    const changed = accountsConfig({
      POTATOQ_CONSOLE_USERS: JSON.stringify([
        { user: 'olga', hash: `scrypt$16384$8$1$b3RoZXJzYWx0b3RoZXJzYQ$${'B'.repeat(43)}`, role: 'operator' },
      ]),
    });
    expect(resolveFromHeaders(changed, h({ cookie }))).toMatchObject({ ok: false, code: 'Unauthorized' });
  });
});

describe('resolveFromHeaders', () => {
  it('is the anonymous operator in mode none', () => {
    expect(resolveFromHeaders(parseAuthConfig({}), h({}))).toMatchObject({ ok: true, principal: { user: 'anonymous', role: 'operator' } });
  });
  it('takes a Bearer token in any mode and never falls back from a bad one', () => {
    expect(resolveFromHeaders(accountsConfig(), h({ authorization: `Bearer ${OPERATOR_TOKEN}` }))).toMatchObject({
      ok: true,
      principal: { user: 'token:ci', via: 'token' },
    });
    expect(resolveFromHeaders(accountsConfig(), h({ authorization: 'Bearer nope', cookie: sessionCookie('olga') }))).toMatchObject({
      ok: false,
      code: 'Unauthorized',
    });
  });

  describe('proxy mode', () => {
    const proxy = (over: Record<string, string> = {}) =>
      parseAuthConfig({ POTATOQ_CONSOLE_AUTH: 'proxy', POTATOQ_CONSOLE_PROXY_ROLES: '{"ops":"operator","*":"viewer"}', ...over });
    it('accepts the user header with the shared secret, mapping groups to roles', () => {
      const c = proxy({ POTATOQ_CONSOLE_PROXY_SECRET: 'proxy-secret-0123456789' });
      const ok = resolveFromHeaders(
        c,
        h({ 'x-forwarded-user': 'ann', 'x-forwarded-groups': 'dev, ops', 'x-potatoq-proxy-secret': 'proxy-secret-0123456789' }),
      );
      expect(ok).toMatchObject({ ok: true, principal: { user: 'ann', role: 'operator', via: 'proxy', groups: ['dev', 'ops'] } });
      expect(resolveFromHeaders(c, h({ 'x-forwarded-user': 'bob', 'x-potatoq-proxy-secret': 'proxy-secret-0123456789' }))).toMatchObject({
        ok: true,
        principal: { role: 'viewer' },
      });
    });
    it('ignores the user header from anyone else', () => {
      const c = proxy({ POTATOQ_CONSOLE_PROXY_SECRET: 'proxy-secret-0123456789', POTATOQ_CONSOLE_PROXY_ADDRESSES: '10.0.0.5' });
      expect(resolveFromHeaders(c, h({ 'x-forwarded-user': 'ann', 'x-potatoq-proxy-secret': 'wrong' }))).toMatchObject({
        ok: false,
        code: 'Unauthorized',
      });
      // A client that writes the peer header itself does not know the process's key.
      expect(
        resolveFromHeaders(c, h({ 'x-forwarded-user': 'ann', [PEER_HEADER]: 'x 10.0.0.5', 'x-forwarded-for': '10.0.0.5' })),
      ).toMatchObject({ ok: false });
    });
    it('trusts the configured proxy address as tagged at the socket', () => {
      installPeerTagging();
      const key = (globalThis as Record<symbol, string>)[Symbol.for('potatoq.console.peerKey')];
      const c = proxy({ POTATOQ_CONSOLE_PROXY_ADDRESSES: '10.0.0.0/24' });
      expect(resolveFromHeaders(c, h({ 'x-forwarded-user': 'ann', [PEER_HEADER]: `${key} ::ffff:10.0.0.5` }))).toMatchObject({
        ok: true,
        principal: { user: 'ann' },
      });
      expect(resolveFromHeaders(c, h({ 'x-forwarded-user': 'ann', [PEER_HEADER]: `${key} 10.0.1.5` }))).toMatchObject({ ok: false });
    });
    it('refuses a user in no granted group when there is no default', () => {
      const c = proxy({ POTATOQ_CONSOLE_PROXY_SECRET: 'proxy-secret-0123456789', POTATOQ_CONSOLE_PROXY_ROLES: '{"ops":"operator"}' });
      expect(resolveFromHeaders(c, h({ 'x-forwarded-user': 'eve', 'x-potatoq-proxy-secret': 'proxy-secret-0123456789' }))).toMatchObject({
        ok: false,
        code: 'Forbidden',
      });
    });
  });

  it('combines grants to the most permissive and keeps per-broker read-only', () => {
    expect(
      combineGrants([
        { role: 'viewer', readOnlyBrokers: [] },
        { role: 'operator', readOnlyBrokers: ['prod', 'eu'] },
        { role: 'operator', readOnlyBrokers: ['prod'] },
      ]),
    ).toEqual({ role: 'operator', readOnlyBrokers: ['prod'] });
    const p = { user: 'a', role: 'operator' as const, via: 'token' as const, readOnlyBrokers: ['prod'] };
    expect(mayWrite(p, 'prod')).toBe(false);
    expect(mayWrite(p, 'dev')).toBe(true);
  });
});

describe('proxy group names', () => {
  it('grants nothing for groups named after Object members (constructor, __proto__, toString)', () => {
    installPeerTagging();
    const config = parseAuthConfig({
      POTATOQ_CONSOLE_AUTH: 'proxy',
      POTATOQ_CONSOLE_PROXY_SECRET: 'proxy-secret-0123456789',
      POTATOQ_CONSOLE_PROXY_ROLES: JSON.stringify({ ops: 'operator' }),
    });
    for (const group of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      const r = resolveFromHeaders(
        config,
        h({ 'x-forwarded-user': 'mallory', 'x-forwarded-groups': group, 'x-potatoq-proxy-secret': 'proxy-secret-0123456789' }),
      );
      expect(r, group).toMatchObject({ ok: false, code: 'Forbidden' });
    }
    expect(
      resolveFromHeaders(
        config,
        h({ 'x-forwarded-user': 'ann', 'x-forwarded-groups': 'ops', 'x-potatoq-proxy-secret': 'proxy-secret-0123456789' }),
      ),
    ).toMatchObject({ ok: true, principal: { role: 'operator' } });
  });
});
