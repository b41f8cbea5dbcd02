import { NextResponse, type NextRequest } from 'next/server';
import { gate } from '@/lib/auth/gate';

// Runs before every page and API request Next serves (Next 16 "proxy", Node runtime), whatever
// the method; what it checks is lib/auth/gate.ts (Host allow-list, methods pages do not take,
// sign-in in accounts/proxy/oidc modes: pages redirect to the login page or answer 401, APIs
// answer 401 JSON). Sets the CSP nonce and the security headers (HSTS over HTTPS). Pages check
// the principal again themselves (requireReader) and writes go through the gate, so no single
// check is the only one. The two polled JSON reads are answered before Next's routing by
// lib/http/fast-reads.ts, after the same gate.

function withHeaders(res: NextResponse, headers: Record<string, string>): NextResponse {
  for (const [k, v] of Object.entries(headers)) res.headers.set(k, v);
  return res;
}

export function proxy(request: NextRequest): NextResponse {
  const { pathname, search } = request.nextUrl;
  const verdict = gate({
    method: request.method,
    pathname,
    search,
    headers: request.headers,
    protocol: request.nextUrl.protocol === 'https:' ? 'https' : 'http',
  });
  switch (verdict.kind) {
    case 'text':
      return withHeaders(
        new NextResponse(`${verdict.text}\n`, {
          status: verdict.status,
          headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
        }),
        verdict.headers,
      );
    case 'json':
      return withHeaders(
        NextResponse.json(verdict.body, { status: verdict.status, headers: { 'cache-control': 'no-store' } }),
        verdict.headers,
      );
    case 'login': {
      // Next's proxy needs an absolute Location; nextUrl carries the Host the browser used.
      const to = request.nextUrl.clone();
      to.pathname = '/login';
      to.search = verdict.next ? `?${new URLSearchParams({ next: verdict.next }).toString()}` : '';
      return withHeaders(NextResponse.redirect(to, 303), verdict.headers);
    }
    case 'pass': {
      const requestHeaders = new Headers(request.headers);
      requestHeaders.set('x-nonce', verdict.nonce);
      requestHeaders.set('content-security-policy', verdict.csp);
      return withHeaders(NextResponse.next({ request: { headers: requestHeaders } }), verdict.headers);
    }
  }
}

export const config = {
  matcher: [{ source: '/((?!_next/static|_next/image).*)' }],
};
