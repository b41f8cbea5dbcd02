import { NextResponse } from 'next/server';
import { crossSiteReason } from '@/lib/actions/origin';
import { clearSessionCookie, isSecureRequest } from '@/lib/auth/login';

export const dynamic = 'force-dynamic';

/** Ends the browser's session (the cookie is stateless: it is removed, and expires anyway). */
export function POST(req: Request) {
  const crossSite = crossSiteReason(req.headers);
  if (crossSite) return NextResponse.json({ error: { code: 'Forbidden', message: crossSite } }, { status: 403 });
  const res = NextResponse.redirect(new URL('/login', req.url), 303);
  res.headers.append('set-cookie', clearSessionCookie(isSecureRequest(req.headers, req.url)));
  return res;
}
