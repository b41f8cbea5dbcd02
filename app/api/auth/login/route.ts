import { NextResponse } from 'next/server';
import { PayloadTooLarge, readBoundedText } from '@/lib/actions/http';
import { sameSiteRefusal } from '@/lib/actions/origin';
import { isSecureRequest, login, safeNext } from '@/lib/auth/login';
import { LOGIN_ERRORS, type LoginErrorCode } from '@/lib/auth/login-errors';

export const dynamic = 'force-dynamic';

const MAX_BODY = 16 * 1024;

/** A relative Location: behind a proxy `req.url` may name an internal host, and CSP's form-action follows redirects. */
const seeOther = (path: string, extra: Record<string, string> = {}) =>
  new NextResponse(null, { status: 303, headers: { location: path, 'cache-control': 'no-store', ...extra } });

/**
 * Sign-in for accounts mode. Takes the login form (urlencoded; answers with 303 redirects so it
 * works without JavaScript) or JSON (answers JSON, for scripts and tests). The form's redirect
 * names an error code, never text: the login page maps known codes to fixed messages.
 */
export async function POST(req: Request) {
  const json = (req.headers.get('content-type') ?? '').includes('application/json');
  const fail = (
    status: number,
    code: string,
    message: string,
    errorCode: LoginErrorCode,
    next = '/',
    extra: Record<string, string> = {},
  ) =>
    json
      ? NextResponse.json({ error: { code, message } }, { status, headers: { 'cache-control': 'no-store', ...extra } })
      : seeOther(`/login?${new URLSearchParams({ error: errorCode, next }).toString()}`, extra);

  const crossSite = sameSiteRefusal(req.headers);
  if (crossSite) return fail(403, 'Forbidden', crossSite, 'cross-site');
  let text: string;
  try {
    text = await readBoundedText(req, MAX_BODY);
  } catch (e) {
    if (e instanceof PayloadTooLarge) return fail(413, 'PayloadTooLarge', LOGIN_ERRORS['too-large'], 'too-large');
    throw e;
  }
  let input: Record<string, unknown>;
  try {
    const parsed: unknown = json ? JSON.parse(text) : Object.fromEntries(new URLSearchParams(text));
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
    input = parsed as Record<string, unknown>;
  } catch {
    return fail(400, 'InvalidInput', 'request body is not a JSON object', 'invalid');
  }
  const next = safeNext(typeof input.next === 'string' ? input.next : null);
  const r = await login(input, req.headers, isSecureRequest(req.headers, req.url));
  if (!r.ok) return fail(r.status, r.code, r.message, r.errorCode, next, r.retryAfter ? { 'retry-after': String(r.retryAfter) } : {});
  const res = json ? NextResponse.json({ user: r.user }, { headers: { 'cache-control': 'no-store' } }) : seeOther(next);
  res.headers.append('set-cookie', r.cookie);
  return res;
}
