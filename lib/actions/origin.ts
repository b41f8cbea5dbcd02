import 'server-only';
import { getAuthConfig } from '@/lib/auth/config';
import { fromTrustedProxy } from '@/lib/auth/client';

// Cross-site request check, shared by server actions and POST route handlers; the gate calls it
// with the request's headers.

/**
 * Returns a reason when a browser request comes from another site, or null when it is allowed.
 * Requests without Origin and Sec-Fetch-Site (curl, scripts) are allowed: they carry no ambient
 * browser credentials that a forged form could abuse. The Origin is compared with the Host,
 * or with X-Forwarded-Host only when `trustForwarded` (the request came through a trusted
 * proxy): any client can send that header, and it would name whatever site it came from.
 */
export function crossSiteReason(headers: Headers, trustForwarded: boolean): string | null {
  const site = headers.get('sec-fetch-site');
  if (site === 'cross-site') return 'cross-site request refused (Sec-Fetch-Site: cross-site)';
  const origin = headers.get('origin');
  if (origin === null) return null;
  if (origin === 'null') return 'request with an opaque Origin refused';
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return 'request with a malformed Origin refused';
  }
  // Behind a trusted proxy the browser's Host is what the proxy forwards.
  const forwarded = trustForwarded ? headers.get('x-forwarded-host')?.split(',')[0]?.trim() : undefined;
  const host = forwarded || headers.get('host');
  if (!host) return 'request without a Host header refused';
  if (originHost.toLowerCase() !== host.toLowerCase()) {
    return `cross-site request refused (Origin ${originHost} does not match host ${host})`;
  }
  return null;
}

/** The check for a request, trusting X-Forwarded-Host from a trusted proxy only
 *  (POTATOQ_CONSOLE_PROXY_ADDRESSES or POTATOQ_CONSOLE_PROXY_SECRET, lib/auth/client.ts). */
export const sameSiteRefusal = (headers: Headers): string | null => crossSiteReason(headers, fromTrustedProxy(getAuthConfig(), headers));
