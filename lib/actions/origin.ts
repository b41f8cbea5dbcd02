// Cross-site request check, shared by server actions and POST route handlers. Client-safe
// (pure); the gate calls it with the request's headers.

/**
 * Returns a reason when a browser request comes from another site, or null when it is allowed.
 * Requests without Origin and Sec-Fetch-Site (curl, scripts) are allowed: they carry no ambient
 * browser credentials that a forged form could abuse.
 */
export function crossSiteReason(headers: Headers): string | null {
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
  // Behind a proxy the browser's Host is what the proxy forwards.
  const host = headers.get('x-forwarded-host')?.split(',')[0]?.trim() || headers.get('host');
  if (!host) return 'request without a Host header refused';
  if (originHost.toLowerCase() !== host.toLowerCase()) {
    return `cross-site request refused (Origin ${originHost} does not match host ${host})`;
  }
  return null;
}
