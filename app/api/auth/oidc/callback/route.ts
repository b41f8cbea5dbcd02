import { NextResponse } from 'next/server';
import { isSecureRequest } from '@/lib/auth/login';
import { finishOidcSignIn } from '@/lib/auth/oidc';
import { clearFlowCookie } from '@/lib/auth/oidc-flow';
import { oidcRefusalPage } from '@/lib/auth/oidc-page';

export const dynamic = 'force-dynamic';

/**
 * Mode oidc: where the provider sends the browser back (POTATOQ_CONSOLE_OIDC_REDIRECT_URL).
 * Success: the session cookie and a 303 to the page asked for; otherwise a page saying why,
 * with no session. The flow cookie is cleared either way: one callback per sign-in.
 */
export async function GET(req: Request) {
  const secure = isSecureRequest(req.headers, req.url);
  const r = await finishOidcSignIn(req.url, req.headers, secure);
  // Relative Location: `req.url` may name an internal host behind a proxy.
  const res = r.ok
    ? new NextResponse(null, { status: 303, headers: { location: r.next, 'cache-control': 'no-store' } })
    : oidcRefusalPage(r);
  if (r.ok) res.headers.append('set-cookie', r.sessionCookie);
  res.headers.append('set-cookie', clearFlowCookie(secure));
  return res;
}
