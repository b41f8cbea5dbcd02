import 'server-only';
import { z } from 'zod';
import { getAuthConfig } from './config';
import { DUMMY_HASH, verifyPassword } from './password';
import { clientAddress, servedOverHttps } from './client';
import type { LoginErrorCode } from './login-errors';
import { getThrottle } from './rate-limit';
import { SESSION_COOKIE, fingerprint, signSession } from './session';

export const ZLogin = z.object({
  user: z.string().trim().min(1, 'enter your user name').max(100),
  password: z.string().min(1, 'enter your password').max(1000),
  next: z.string().max(2000).optional(),
});

export type LoginOutcome =
  | { ok: true; user: string; cookie: string }
  | {
      ok: false;
      status: 400 | 401 | 429 | 503;
      code: 'InvalidInput' | 'Unauthorized' | 'TooManyAttempts' | 'Unavailable';
      errorCode: LoginErrorCode;
      message: string;
      retryAfter?: number;
    };

const SAME_SITE = 'http://same-site.invalid';

/**
 * Only same-site paths: `/x`, never `//host`, `/\\host`, `https://…`, nor anything a browser
 * or URL parser would turn into one (tabs and newlines are dropped by browsers, so `/\t/host`
 * is `//host`). Printable ASCII only: a CR, LF or non-ASCII character cannot go into a
 * Location header. The answer is the parsed path, checked again after parsing.
 */
export function safeNext(next: string | undefined | null): string {
  if (!next || next.length > 2000 || !/^\/(?![/\\])[\x21-\x7e]*$/.test(next) || next.includes('\\')) return '/';
  let u: URL;
  try {
    u = new URL(next, SAME_SITE);
  } catch {
    return '/';
  }
  const path = `${u.pathname}${u.search}${u.hash}`;
  return u.origin === SAME_SITE && /^\/(?![/\\])/.test(path) ? path : '/';
}

export function cookieHeader(value: string, maxAge: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure ? '; Secure' : ''}`;
}

export function isSecureRequest(headers: Headers, url: string): boolean {
  const config = getAuthConfig();
  if (config.cookieSecure !== 'auto') return config.cookieSecure;
  return servedOverHttps(config, headers, new URL(url).protocol === 'https:' ? 'https' : 'http');
}

export function clearSessionCookie(secure: boolean): string {
  return cookieHeader('', 0, secure);
}

function log(fields: Record<string, unknown>): void {
  console.info(JSON.stringify({ at: new Date().toISOString(), event: 'console.auth', ...fields }));
}

/**
 * Checks a user name and password (throttled: the attempt is counted before the password is
 * checked, see rate-limit.ts) and makes the session cookie.
 */
export async function login(input: unknown, headers: Headers, secure: boolean): Promise<LoginOutcome> {
  const config = getAuthConfig();
  const parsed = ZLogin.safeParse(input);
  if (!parsed.success)
    return {
      ok: false,
      status: 400,
      code: 'InvalidInput',
      errorCode: 'invalid',
      message: parsed.error.issues[0]?.message ?? 'invalid input',
    };
  if (config.mode !== 'accounts' || !config.sessionSecret)
    return {
      ok: false,
      status: 400,
      code: 'InvalidInput',
      errorCode: 'not-accounts',
      message: 'this console does not use built-in accounts',
    };
  const { user, password } = parsed.data;
  const client = clientAddress(config, headers) ?? 'unknown';
  let wait: number;
  try {
    wait = await (await getThrottle()).take(user, client);
  } catch (e) {
    // Fail closed: without its counters sign-in would be unthrottled.
    log({ user, client, outcome: 'throttle-unavailable', message: String(e) });
    return {
      ok: false,
      status: 503,
      code: 'Unavailable',
      errorCode: 'unavailable',
      message: 'sign-in is unavailable right now (the state store cannot be reached)',
    };
  }
  if (wait > 0) {
    log({ user, client, outcome: 'throttled', wait });
    return {
      ok: false,
      status: 429,
      code: 'TooManyAttempts',
      errorCode: 'throttled',
      message: `too many failed sign-ins; try again in ${wait < 90 ? `${wait} s` : `${Math.ceil(wait / 60)} min`}`,
      retryAfter: wait,
    };
  }
  const account = config.accounts.find((a) => a.user === user);
  const good = await verifyPassword(password, account?.hash ?? DUMMY_HASH);
  if (!account || !good) {
    log({ user, client, outcome: 'failed' });
    return { ok: false, status: 401, code: 'Unauthorized', errorCode: 'wrong-password', message: 'wrong user name or password' };
  }
  await (await getThrottle()).succeeded(user, client).catch(() => {});
  log({ user, client, outcome: 'signed-in' });
  const now = Math.floor(Date.now() / 1000);
  const value = signSession(config.sessionSecret, {
    u: account.user,
    f: fingerprint(config.sessionSecret, account.hash),
    iat: now,
    exp: now + config.sessionSeconds,
  });
  return { ok: true, user: account.user, cookie: cookieHeader(value, config.sessionSeconds, secure) };
}
