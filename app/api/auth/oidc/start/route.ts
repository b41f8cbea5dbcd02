import { NextResponse } from 'next/server';
import { isSecureRequest } from '@/lib/auth/login';
import { beginOidcSignIn } from '@/lib/auth/oidc';
import { oidcRefusalPage } from '@/lib/auth/oidc-page';

export const dynamic = 'force-dynamic';

/**
 * Mode oidc: starts a sign-in (`GET /api/auth/oidc/start?next=/path`, the link on /login) and
 * sends the browser to the provider. A link, not a form: CSP `form-action 'self'` also covers
 * the redirect that follows a form post, and the provider is another origin.
 */
export async function GET(req: Request) {
  const secure = isSecureRequest(req.headers, req.url);
  const r = await beginOidcSignIn(new URL(req.url).searchParams.get('next'), secure);
  if (!r.ok) return oidcRefusalPage(r);
  const res = new NextResponse(null, { status: 303, headers: { location: r.location, 'cache-control': 'no-store' } });
  res.headers.append('set-cookie', r.flowCookie);
  return res;
}
