import { afterEach, describe, expect, it } from 'vitest';
import { parseAuthConfig, setAuthConfigForTests } from '@/lib/auth/config';
import { PEER_HEADER, installPeerTagging } from '@/lib/auth/peer';
import { crossSiteReason, sameSiteRefusal } from './origin';

const h = (init: Record<string, string>) => new Headers(init);

describe('crossSiteReason', () => {
  it('allows same-origin browser requests and header-less scripts', () => {
    expect(crossSiteReason(h({ host: 'localhost:3000', origin: 'http://localhost:3000' }), false)).toBeNull();
    expect(crossSiteReason(h({ host: 'localhost:3000' }), false)).toBeNull();
    expect(crossSiteReason(h({ host: 'x', 'sec-fetch-site': 'same-origin' }), false)).toBeNull();
  });
  it('refuses an Origin that does not match the Host', () => {
    expect(crossSiteReason(h({ host: 'localhost:3000', origin: 'http://evil.example' }), false)).toMatch(/does not match/);
  });
  it('refuses cross-site fetch metadata and opaque origins', () => {
    expect(crossSiteReason(h({ host: 'a', 'sec-fetch-site': 'cross-site' }), false)).toMatch(/cross-site/);
    expect(crossSiteReason(h({ host: 'a', origin: 'null' }), false)).toMatch(/opaque/);
  });
  it('compares against the forwarded host behind a trusted proxy only', () => {
    const behind = h({ host: '127.0.0.1:3000', 'x-forwarded-host': 'console.example', origin: 'https://console.example' });
    expect(crossSiteReason(behind, true)).toBeNull();
    expect(crossSiteReason(behind, false)).toMatch(/does not match host 127\.0\.0\.1:3000/);
  });
});

describe('sameSiteRefusal: X-Forwarded-Host', () => {
  installPeerTagging();
  const key = (globalThis as Record<symbol, string | undefined>)[Symbol.for('potatoq.console.peerKey')]!;
  const PROXY_SECRET = 'proxy-secret-0123456789';
  // A page on evil.example posting to the console, with the header naming its own site.
  const forged = (peer: string, extra: Record<string, string> = {}) =>
    h({
      [PEER_HEADER]: `${key} ${peer}`,
      host: 'console.example',
      origin: 'https://evil.example',
      'x-forwarded-host': 'evil.example',
      ...extra,
    });
  afterEach(() => setAuthConfigForTests(null));

  it('is ignored from a client that is not a trusted proxy: the forged header changes nothing', () => {
    setAuthConfigForTests(parseAuthConfig({}));
    expect(sameSiteRefusal(forged('203.0.113.9'))).toMatch(/Origin evil\.example does not match host console\.example/);
    setAuthConfigForTests(parseAuthConfig({ POTATOQ_CONSOLE_PROXY_ADDRESSES: '10.0.0.5', POTATOQ_CONSOLE_PROXY_SECRET: PROXY_SECRET }));
    expect(sameSiteRefusal(forged('10.0.0.6'))).toMatch(/does not match/);
    expect(sameSiteRefusal(forged('10.0.0.6', { 'x-potatoq-proxy-secret': 'wrong-secret-0123456' }))).toMatch(/does not match/);
  });

  it('is what a trusted proxy (by address or shared secret) says the browser asked for', () => {
    setAuthConfigForTests(parseAuthConfig({ POTATOQ_CONSOLE_PROXY_ADDRESSES: '10.0.0.5', POTATOQ_CONSOLE_PROXY_SECRET: PROXY_SECRET }));
    const proxied = (extra: Record<string, string>) =>
      h({ [PEER_HEADER]: `${key} 10.0.0.5`, host: '127.0.0.1:3000', origin: 'https://console.example', ...extra });
    expect(sameSiteRefusal(proxied({ 'x-forwarded-host': 'console.example' }))).toBeNull();
    expect(sameSiteRefusal(proxied({ 'x-forwarded-host': 'other.example' }))).toMatch(/does not match/);
    const bySecret = h({
      [PEER_HEADER]: `${key} 192.0.2.1`,
      host: '127.0.0.1:3000',
      origin: 'https://console.example',
      'x-forwarded-host': 'console.example',
      'x-potatoq-proxy-secret': PROXY_SECRET,
    });
    expect(sameSiteRefusal(bySecret)).toBeNull();
  });
});
