import { NextResponse } from 'next/server';
import { crossSiteReason } from '@/lib/actions/origin';
import { isSecureRequest, login, safeNext } from '@/lib/auth/login';

export const dynamic = 'force-dynamic';

const MAX_BODY = 16 * 1024;

/** A relative Location: behind a proxy `req.url` may name an internal host, and CSP's form-action follows redirects. */
const seeOther = (path: string, extra: Record<string, string> = {}) => new NextResponse(null, { status: 303, headers: { location: path, 'cache-control': 'no-store', ...extra } });

/**
 * Sign-in for accounts mode. Takes the login form (urlencoded; answers with 303 redirects so it
 * works without JavaScript) or JSON (answers JSON, for scripts and tests).
 */
export async function POST(req: Request) {
  const json = (req.headers.get('content-type') ?? '').includes('application/json');
  const fail = (status: number, code: string, message: string, next = '/', extra: Record<string, string> = {}) =>
    json
      ? NextResponse.json({ error: { code, message } }, { status, headers: { 'cache-control': 'no-store', ...extra } })
      : seeOther(`/login?error=${encodeURIComponent(message)}&next=${encodeURIComponent(next)}`, extra);

  const crossSite = crossSiteReason(req.headers);
  if (crossSite) return fail(403, 'Forbidden', crossSite);
  if (Number(req.headers.get('content-length') ?? 0) > MAX_BODY) return fail(413, 'PayloadTooLarge', 'request too large');
  const text = await req.text();
  if (text.length > MAX_BODY) return fail(413, 'PayloadTooLarge', 'request too large');
  let input: Record<string, unknown>;
  try {
    input = json ? (JSON.parse(text) as Record<string, unknown>) : Object.fromEntries(new URLSearchParams(text));
  } catch {
    return fail(400, 'InvalidInput', 'request body is not valid JSON');
  }
  const next = safeNext(typeof input.next === 'string' ? input.next : null);
  const r = await login(input, req.headers, isSecureRequest(req.headers, req.url));
  if (!r.ok) return fail(r.status, r.code, r.message, next, r.retryAfter ? { 'retry-after': String(r.retryAfter) } : {});
  const res = json
    ? NextResponse.json({ user: r.user }, { headers: { 'cache-control': 'no-store' } })
    : seeOther(next);
  res.headers.append('set-cookie', r.cookie);
  return res;
}
