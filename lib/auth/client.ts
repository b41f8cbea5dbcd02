import 'server-only';
import { isIP } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import { normalizeAddress } from './address';
import type { AuthConfig } from './config';
import { peerAddress } from './peer';

/**
 * The address of the client behind a request, for throttling and logs. The socket's address
 * (tagged at the socket, see peer.ts), unless that socket is a trusted reverse proxy: then the
 * address the proxy appended to X-Forwarded-For (the right-most entry; everything left of it
 * came from the client and may be forged). A proxy is trusted by its address
 * (POTATOQ_CONSOLE_PROXY_ADDRESSES) or its shared secret (POTATOQ_CONSOLE_PROXY_SECRET), in
 * any mode. Null when the socket address is unknown (tagging not installed).
 */
export function fromTrustedProxy(config: AuthConfig, headers: Headers): boolean {
  const p = config.proxy;
  const peer = peerAddress(headers);
  if (p.addresses !== null && peer !== null && p.addresses(peer)) return true;
  const secret = headers.get(p.secretHeader);
  if (p.secret === null || secret === null) return false;
  const a = Buffer.from(secret);
  const b = Buffer.from(p.secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function clientAddress(config: AuthConfig, headers: Headers): string | null {
  const peer = peerAddress(headers);
  if (!fromTrustedProxy(config, headers)) return peer === null ? null : normalizeAddress(peer);
  const forwarded = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const last = forwarded[forwarded.length - 1];
  return last && isIP(normalizeAddress(last)) ? normalizeAddress(last) : peer === null ? null : normalizeAddress(peer);
}

/**
 * Served over HTTPS, as a trusted proxy says in X-Forwarded-Proto (`next start` serves plain
 * HTTP itself, and Next derives the URL's protocol from that same header, whoever sent it).
 */
export function isHttps(config: AuthConfig, headers: Headers): boolean {
  const proto = headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  return proto === 'https' && fromTrustedProxy(config, headers);
}

/**
 * The request's scheme for what the console itself decides (the cookie's Secure flag, the CSP):
 * a trusted proxy's X-Forwarded-Proto; else the connection's. When an untrusted client sent the
 * header, the connection's scheme as Next reports it came from that header too: plain HTTP.
 */
export function servedOverHttps(config: AuthConfig, headers: Headers, connection: 'http' | 'https'): boolean {
  if (headers.has('x-forwarded-proto')) return isHttps(config, headers);
  return connection === 'https';
}
