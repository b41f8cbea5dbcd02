import { NextResponse, type NextRequest } from 'next/server';
import { getAuthConfig } from '@/lib/auth/config';
import { API_CSP, STATIC_SECURITY_HEADERS, contentSecurityPolicy } from '@/lib/auth/csp';
import { resolveFromHeaders } from '@/lib/auth/resolve';

// Runs before every page and API request (Next 16 "proxy", Node runtime): sets the CSP nonce and
// security headers, and keeps readers out in accounts/proxy modes (pages redirect to the login
// page or answer 401; GET APIs answer 401 JSON). Writes are authorised again by the gate,
// which is the real boundary for actions (the docs warn a matcher can miss a server action).

const PUBLIC = ['/login', '/api/auth/login', '/api/auth/logout', '/api/auth/oidc/start', '/api/auth/oidc/callback', '/api/health/live', '/theme-init.js', '/icon.svg', '/favicon.ico', '/robots.txt'];

function withHeaders(res: NextResponse, csp: string): NextResponse {
  res.headers.set('content-security-policy', csp);
  for (const [k, v] of Object.entries(STATIC_SECURITY_HEADERS)) res.headers.set(k, v);
  return res;
}

export function proxy(request: NextRequest): NextResponse {
  const { pathname, search } = request.nextUrl;
  const isApi = pathname.startsWith('/api/');
  const nonce = Buffer.from(crypto.randomUUID()).toString('base64');
  const https = (request.headers.get('x-forwarded-proto') ?? request.nextUrl.protocol.replace(':', '')) === 'https';
  const csp = isApi ? API_CSP : contentSecurityPolicy(nonce, { dev: process.env.NODE_ENV === 'development', https });
  const config = getAuthConfig();

  const open = PUBLIC.includes(pathname) || config.mode === 'none';
  // Only reads are stopped here; POSTs (actions) reach the gate, which answers and logs them.
  const reading = request.method === 'GET' || request.method === 'HEAD';
  if (!open && reading) {
    const who = resolveFromHeaders(config, request.headers);
    if (!who.ok) {
      if (isApi) {
        return withHeaders(NextResponse.json({ error: { code: who.code, message: who.reason } }, { status: who.code === 'Forbidden' ? 403 : 401, headers: { 'cache-control': 'no-store' } }), csp);
      }
      if ((config.mode === 'accounts' || config.mode === 'oidc') && who.code === 'Unauthorized' && !request.headers.has('authorization')) {
        // Next's proxy needs an absolute Location; nextUrl carries the Host the browser used.
        const to = request.nextUrl.clone();
        to.pathname = '/login';
        to.search = pathname === '/' ? '' : `?${new URLSearchParams({ next: `${pathname}${search}` }).toString()}`;
        return withHeaders(NextResponse.redirect(to, 303), csp);
      }
      return withHeaders(new NextResponse(`${who.reason}\n`, { status: who.code === 'Forbidden' ? 403 : 401, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } }), csp);
    }
  }

  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('x-nonce', nonce);
  requestHeaders.set('content-security-policy', csp);
  return withHeaders(NextResponse.next({ request: { headers: requestHeaders } }), csp);
}

export const config = {
  matcher: [{ source: '/((?!_next/static|_next/image).*)' }],
};
