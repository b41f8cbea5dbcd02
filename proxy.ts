import { NextResponse, type NextRequest } from 'next/server';
import { getAuthConfig } from '@/lib/auth/config';
import { API_CSP, STATIC_SECURITY_HEADERS, contentSecurityPolicy } from '@/lib/auth/csp';
import { isHttps } from '@/lib/auth/client';
import { getHostRule, hostAllowed } from '@/lib/auth/hosts';
import { resolveFromHeaders, resolveScraper } from '@/lib/auth/resolve';

// Runs before every page and API request (Next 16 "proxy", Node runtime), whatever the method:
// refuses Host names the console is not served on (DNS rebinding), methods pages do not take,
// and, in accounts/proxy modes, anyone not signed in (pages redirect to the login page or
// answer 401; APIs answer 401 JSON), for GET, POST, PUT, … alike. Sets the CSP nonce and the
// security headers (HSTS over HTTPS). Pages check the principal again themselves
// (requireReader) and writes go through the gate, so no single check is the only one.

const PUBLIC = [
  '/login',
  '/api/auth/login',
  '/api/auth/logout',
  '/api/auth/oidc/start',
  '/api/auth/oidc/callback',
  '/api/health/live',
  '/theme-init.js',
  '/icon.svg',
  '/favicon.ico',
  '/robots.txt',
];

const HSTS = 'max-age=31536000';

function withHeaders(res: NextResponse, csp: string, hsts = false): NextResponse {
  res.headers.set('content-security-policy', csp);
  for (const [k, v] of Object.entries(STATIC_SECURITY_HEADERS)) res.headers.set(k, v);
  if (hsts) res.headers.set('strict-transport-security', HSTS);
  return res;
}

const plain = (status: number, text: string, extra: Record<string, string> = {}) =>
  new NextResponse(`${text}\n`, {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...extra },
  });

/** Every path segment decodes as UTF-8 (`%ff` would otherwise fail later, as a 500). */
function wellEncoded(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

/** Pages answer GET and HEAD, and POST only as a server action (Next-Action header). */
function pageMethodAllowed(request: NextRequest): boolean {
  const m = request.method;
  return m === 'GET' || m === 'HEAD' || (m === 'POST' && request.headers.has('next-action'));
}

export function proxy(request: NextRequest): NextResponse {
  const { pathname, search } = request.nextUrl;
  // /metrics answers like an API (401/403 as text for a scraper, never a login redirect), and
  // is the one path a `metrics` token may read.
  const isMetrics = pathname === '/metrics';
  const isApi = pathname.startsWith('/api/') || isMetrics;
  const nonce = Buffer.from(crypto.randomUUID()).toString('base64');
  const https = (request.headers.get('x-forwarded-proto') ?? request.nextUrl.protocol.replace(':', '')) === 'https';
  const csp = isApi ? API_CSP : contentSecurityPolicy(nonce, { dev: process.env.NODE_ENV === 'development', https });
  const config = getAuthConfig();
  const hsts = isHttps(config, request.headers);

  if (!hostAllowed(getHostRule(config.mode), request.headers.get('host'))) {
    return withHeaders(plain(421, 'this console is not served under that host name (POTATOQ_CONSOLE_ALLOWED_HOSTS)'), csp, hsts);
  }
  if (!wellEncoded(pathname)) return withHeaders(plain(400, 'malformed percent-encoding in the path'), csp, hsts);
  if (!isApi && !pageMethodAllowed(request)) return withHeaders(plain(405, 'method not allowed', { allow: 'GET, HEAD' }), csp, hsts);

  const open = PUBLIC.includes(pathname) || config.mode === 'none';
  // Every method: a POST, PUT or DELETE to a page renders it as a GET would.
  if (!open) {
    const who = isMetrics ? resolveScraper(config, request.headers) : resolveFromHeaders(config, request.headers);
    if (!who.ok) {
      const status = who.code === 'Forbidden' ? 403 : 401;
      if (isApi) {
        return withHeaders(
          NextResponse.json({ error: { code: who.code, message: who.reason } }, { status, headers: { 'cache-control': 'no-store' } }),
          csp,
          hsts,
        );
      }
      const reading = request.method === 'GET' || request.method === 'HEAD';
      if (
        reading &&
        (config.mode === 'accounts' || config.mode === 'oidc') &&
        who.code === 'Unauthorized' &&
        !request.headers.has('authorization')
      ) {
        // Next's proxy needs an absolute Location; nextUrl carries the Host the browser used.
        const to = request.nextUrl.clone();
        to.pathname = '/login';
        to.search = pathname === '/' ? '' : `?${new URLSearchParams({ next: `${pathname}${search}` }).toString()}`;
        return withHeaders(NextResponse.redirect(to, 303), csp, hsts);
      }
      return withHeaders(plain(status, who.reason), csp, hsts);
    }
  }

  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('x-nonce', nonce);
  requestHeaders.set('content-security-policy', csp);
  return withHeaders(NextResponse.next({ request: { headers: requestHeaders } }), csp, hsts);
}

export const config = {
  matcher: [{ source: '/((?!_next/static|_next/image).*)' }],
};
