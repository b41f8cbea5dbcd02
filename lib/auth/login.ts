import 'server-only';
import { z } from 'zod';
import { getAuthConfig } from './config';
import { DUMMY_HASH, verifyPassword } from './password';
import { peerAddress } from './peer';
import { loginBlockedFor, noteLoginFailure, noteLoginSuccess } from './rate-limit';
import { SESSION_COOKIE, fingerprint, signSession } from './session';

export const ZLogin = z.object({
  user: z.string().trim().min(1, 'enter your user name').max(100),
  password: z.string().min(1, 'enter your password').max(1000),
  next: z.string().max(2000).optional(),
});

export type LoginOutcome =
  | { ok: true; user: string; cookie: string }
  | { ok: false; status: 400 | 401 | 429; code: 'InvalidInput' | 'Unauthorized' | 'TooManyAttempts'; message: string; retryAfter?: number };

/** Only same-site paths: `/x`, never `//host` or `https://…` (no open redirect). */
export function safeNext(next: string | undefined | null): string {
  return next && /^\/(?![/\\])/.test(next) ? next : '/';
}

export function cookieHeader(value: string, maxAge: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure ? '; Secure' : ''}`;
}

export function isSecureRequest(headers: Headers, url: string): boolean {
  const setting = getAuthConfig().cookieSecure;
  if (setting !== 'auto') return setting;
  return (headers.get('x-forwarded-proto') ?? new URL(url).protocol.replace(':', '')) === 'https';
}

export function clearSessionCookie(secure: boolean): string {
  return cookieHeader('', 0, secure);
}

function log(fields: Record<string, unknown>): void {
  console.info(JSON.stringify({ at: new Date().toISOString(), event: 'console.auth', ...fields }));
}

/** Checks a user name and password (throttled) and makes the session cookie. */
export async function login(input: unknown, headers: Headers, secure: boolean): Promise<LoginOutcome> {
  const config = getAuthConfig();
  const parsed = ZLogin.safeParse(input);
  if (!parsed.success) return { ok: false, status: 400, code: 'InvalidInput', message: parsed.error.issues[0]?.message ?? 'invalid input' };
  if (config.mode !== 'accounts' || !config.sessionSecret) return { ok: false, status: 400, code: 'InvalidInput', message: 'this console does not use built-in accounts' };
  const { user, password } = parsed.data;
  const peer = peerAddress(headers) ?? 'unknown';
  const wait = loginBlockedFor(user, peer);
  if (wait > 0) {
    log({ user, peer, outcome: 'throttled' });
    return { ok: false, status: 429, code: 'TooManyAttempts', message: `too many failed sign-ins; try again in ${Math.ceil(wait / 60)} min`, retryAfter: wait };
  }
  const account = config.accounts.find((a) => a.user === user);
  const good = await verifyPassword(password, account?.hash ?? DUMMY_HASH);
  if (!account || !good) {
    noteLoginFailure(user, peer);
    log({ user, peer, outcome: 'failed' });
    return { ok: false, status: 401, code: 'Unauthorized', message: 'wrong user name or password' };
  }
  noteLoginSuccess(user);
  log({ user, peer, outcome: 'signed-in' });
  const now = Math.floor(Date.now() / 1000);
  const value = signSession(config.sessionSecret, { u: account.user, f: fingerprint(config.sessionSecret, account.hash), iat: now, exp: now + config.sessionSeconds });
  return { ok: true, user: account.user, cookie: cookieHeader(value, config.sessionSeconds, secure) };
}
