import { describe, expect, it } from 'vitest';
import { clientAddress, isHttps, servedOverHttps } from './client';
import { parseAuthConfig } from './config';
import { PEER_HEADER, installPeerTagging } from './peer';

installPeerTagging();
const key = (globalThis as Record<symbol, string | undefined>)[Symbol.for('potatoq.console.peerKey')]!;
const from = (peer: string, extra: Record<string, string> = {}) => new Headers({ [PEER_HEADER]: `${key} ${peer}`, ...extra });

describe('the trusted client address', () => {
  const behindProxy = parseAuthConfig({ POTATOQ_CONSOLE_PROXY_ADDRESSES: '10.0.0.5' });
  const direct = parseAuthConfig({});

  it('is the socket address when no trusted proxy is in front, whatever X-Forwarded-For says', () => {
    expect(clientAddress(direct, from('::ffff:203.0.113.9', { 'x-forwarded-for': '1.2.3.4' }))).toBe('203.0.113.9');
    expect(clientAddress(behindProxy, from('10.0.0.6', { 'x-forwarded-for': '1.2.3.4' }))).toBe('10.0.0.6');
  });

  it('is the address the trusted proxy appended (the right-most X-Forwarded-For entry)', () => {
    expect(clientAddress(behindProxy, from('10.0.0.5', { 'x-forwarded-for': '6.6.6.6, 203.0.113.20' }))).toBe('203.0.113.20');
    expect(clientAddress(behindProxy, from('10.0.0.5', { 'x-forwarded-for': 'not-an-ip' }))).toBe('10.0.0.5');
  });

  it('is unknown without the socket tag (a forged peer header counts for nothing)', () => {
    expect(clientAddress(direct, new Headers({ [PEER_HEADER]: 'forged 1.2.3.4' }))).toBeNull();
  });

  it('says HTTPS only when a trusted proxy says so', () => {
    expect(isHttps(behindProxy, from('10.0.0.5', { 'x-forwarded-proto': 'https' }))).toBe(true);
    expect(isHttps(behindProxy, from('10.0.0.9', { 'x-forwarded-proto': 'https' }))).toBe(false);
    expect(isHttps(behindProxy, from('10.0.0.5', { 'x-forwarded-proto': 'http' }))).toBe(false);
  });
});

describe('servedOverHttps', () => {
  const behindProxy = parseAuthConfig({ POTATOQ_CONSOLE_PROXY_ADDRESSES: '10.0.0.5' });
  it("takes X-Forwarded-Proto from a trusted proxy only, and the connection's scheme without one", () => {
    expect(servedOverHttps(behindProxy, from('10.0.0.5', { 'x-forwarded-proto': 'https' }), 'http')).toBe(true);
    expect(servedOverHttps(behindProxy, from('10.0.0.9', { 'x-forwarded-proto': 'https' }), 'https')).toBe(false);
    expect(servedOverHttps(behindProxy, from('10.0.0.9'), 'https')).toBe(true);
    expect(servedOverHttps(behindProxy, from('10.0.0.9'), 'http')).toBe(false);
  });
});
