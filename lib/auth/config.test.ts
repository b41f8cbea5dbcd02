import { describe, expect, it } from 'vitest';
import { checkBind } from './bind';
import { parseAuthConfig } from './config';
import { TEST_HASH, TEST_SECRET } from '@/tests/support/auth';

const users = JSON.stringify([{ user: 'olga', hash: TEST_HASH, role: 'operator' }]);

describe('parseAuthConfig', () => {
  it('defaults to mode none with nothing set', () => {
    expect(parseAuthConfig({})).toMatchObject({ mode: 'none', insecure: false, accounts: [], tokens: [] });
  });
  it('names the field of a bad value', () => {
    expect(() => parseAuthConfig({ POTATOQ_CONSOLE_AUTH: 'ldap' })).toThrow(/^POTATOQ_CONSOLE_AUTH: must be none, accounts, proxy or oidc/);
    expect(() => parseAuthConfig({ POTATOQ_CONSOLE_AUTH: 'accounts', POTATOQ_CONSOLE_USERS: users })).toThrow(
      /^POTATOQ_CONSOLE_SESSION_SECRET: required/,
    );
    expect(() =>
      parseAuthConfig({ POTATOQ_CONSOLE_AUTH: 'accounts', POTATOQ_CONSOLE_SESSION_SECRET: 'short', POTATOQ_CONSOLE_USERS: users }),
    ).toThrow(/^POTATOQ_CONSOLE_SESSION_SECRET: must be at least 32/);
    expect(() => parseAuthConfig({ POTATOQ_CONSOLE_USERS: '[{"user":"a","hash":"plain","role":"operator"}]' })).toThrow(
      /^POTATOQ_CONSOLE_USERS\[0\]\.hash: must be an scrypt hash/,
    );
    expect(() => parseAuthConfig({ POTATOQ_CONSOLE_USERS: `[{"user":"a","hash":"${TEST_HASH}","role":"admin"}]` })).toThrow(
      /^POTATOQ_CONSOLE_USERS\[0\]\.role/,
    );
    expect(() => parseAuthConfig({ POTATOQ_CONSOLE_TOKENS: '{nope' })).toThrow(/^POTATOQ_CONSOLE_TOKENS: not valid JSON/);
    expect(() => parseAuthConfig({ POTATOQ_CONSOLE_AUTH: 'proxy' })).toThrow(/^POTATOQ_CONSOLE_PROXY_ADDRESSES: proxy mode needs/);
    expect(() => parseAuthConfig({ POTATOQ_CONSOLE_AUTH: 'proxy', POTATOQ_CONSOLE_PROXY_ADDRESSES: '10.0.0.300' })).toThrow(
      /^POTATOQ_CONSOLE_PROXY_ADDRESSES: "10.0.0.300"/,
    );
    expect(() => parseAuthConfig({ POTATOQ_CONSOLE_INSECURE_NO_AUTH: 'maybe' })).toThrow(/^POTATOQ_CONSOLE_INSECURE_NO_AUTH/);
    expect(() => parseAuthConfig({ POTATOQ_CONSOLE_SESSION_HOURS: 'x' })).toThrow(/^POTATOQ_CONSOLE_SESSION_HOURS/);
  });
  it('refuses duplicate users', () => {
    const dup = JSON.stringify([
      { user: 'a', hash: TEST_HASH, role: 'viewer' },
      { user: 'a', hash: TEST_HASH, role: 'viewer' },
    ]);
    expect(() => parseAuthConfig({ POTATOQ_CONSOLE_USERS: dup })).toThrow(/POTATOQ_CONSOLE_USERS\[1\]\.user: duplicate/);
  });
  it('reads proxy settings with lower-cased header names and role grants', () => {
    const c = parseAuthConfig({
      POTATOQ_CONSOLE_AUTH: 'proxy',
      POTATOQ_CONSOLE_PROXY_ADDRESSES: '10.1.0.0/16, ::1',
      POTATOQ_CONSOLE_PROXY_USER_HEADER: 'X-Auth-Request-User',
      POTATOQ_CONSOLE_PROXY_ROLES: '{"ops":{"role":"operator","readOnlyBrokers":["prod"]},"*":"viewer"}',
    });
    expect(c.proxy.userHeader).toBe('x-auth-request-user');
    expect(c.proxy.roles.ops).toEqual({ role: 'operator', readOnlyBrokers: ['prod'] });
    expect(c.proxy.addresses?.('10.1.200.3')).toBe(true);
    expect(c.proxy.addresses?.('::ffff:10.1.0.9')).toBe(true);
    expect(c.proxy.addresses?.('10.2.0.1')).toBe(false);
    expect(c.proxy.addresses?.('::1')).toBe(true);
  });
  it('accepts accounts mode with users and a secret', () => {
    const c = parseAuthConfig({
      POTATOQ_CONSOLE_AUTH: 'accounts',
      POTATOQ_CONSOLE_USERS: users,
      POTATOQ_CONSOLE_SESSION_SECRET: TEST_SECRET,
      POTATOQ_CONSOLE_SESSION_HOURS: '1',
    });
    expect(c).toMatchObject({
      mode: 'accounts',
      sessionSeconds: 3600,
      accounts: [{ user: 'olga', role: 'operator', readOnlyBrokers: [] }],
    });
  });
});

describe('checkBind', () => {
  const none = parseAuthConfig({});
  it('allows mode none on loopback only', () => {
    expect(checkBind(none, ['127.0.0.1'])).toEqual({ insecureBanner: null });
    expect(checkBind(none, ['::1', '::ffff:127.0.0.1'])).toEqual({ insecureBanner: null });
    expect(() => checkBind(none, ['0.0.0.0'])).toThrow(/POTATOQ_CONSOLE_AUTH: authentication is off .* listens on 0\.0\.0\.0/);
    expect(() => checkBind(none, ['::'])).toThrow(/listens on ::/);
    expect(() => checkBind(none, ['192.168.1.5'])).toThrow(/INSECURE_NO_AUTH/);
  });
  it('starts off loopback with the insecure flag, and says so in a banner', () => {
    const c = parseAuthConfig({ POTATOQ_CONSOLE_INSECURE_NO_AUTH: '1' });
    expect(checkBind(c, ['0.0.0.0']).insecureBanner).toMatch(/Authentication is off/);
  });
  it('does not care where accounts or proxy mode listen', () => {
    const c = parseAuthConfig({
      POTATOQ_CONSOLE_AUTH: 'accounts',
      POTATOQ_CONSOLE_USERS: users,
      POTATOQ_CONSOLE_SESSION_SECRET: TEST_SECRET,
    });
    expect(checkBind(c, ['0.0.0.0']).insecureBanner).toBeNull();
  });
});
