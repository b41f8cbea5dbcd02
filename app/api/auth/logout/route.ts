import { NextResponse } from 'next/server';
import { sameSiteRefusal } from '@/lib/actions/origin';
import { clearSessionCookie, isSecureRequest } from '@/lib/auth/login';

export const dynamic = 'force-dynamic';

/** Ends the browser's session (the cookie is stateless: it is removed, and expires anyway). */
export function POST(req: Request) {
  const crossSite = sameSiteRefusal(req.headers);
  if (crossSite) return NextResponse.json({ error: { code: 'Forbidden', message: crossSite } }, { status: 403 });
  // Relative Location: `req.url` may name an internal host behind a proxy.
  const res = new NextResponse(null, { status: 303, headers: { location: '/login', 'cache-control': 'no-store' } });
  res.headers.append('set-cookie', clearSessionCookie(isSecureRequest(req.headers, req.url)));
  return res;
}
