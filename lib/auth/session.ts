import 'server-only';
import { createHmac, timingSafeEqual } from 'node:crypto';

// Signed session cookies: `base64url(json).base64url(hmac-sha256)`. The payload names the user
// and a fingerprint of their password hash, so a changed password or removed account ends
// every session at once; the role is looked up in the configuration on each request.

export const SESSION_COOKIE = 'potatoq_session';

export interface SessionClaims {
  u: string;
  /** Fingerprint of the account's password hash when the session was made. */
  f: string;
  iat: number;
  exp: number;
}

const mac = (secret: string, data: string) => createHmac('sha256', secret).update(data).digest();

export function fingerprint(secret: string, passwordHash: string): string {
  return mac(secret, `fp:${passwordHash}`).subarray(0, 12).toString('base64url');
}

export function signSession(secret: string, claims: SessionClaims): string {
  const body = Buffer.from(JSON.stringify(claims), 'utf8').toString('base64url');
  return `${body}.${mac(secret, body).toString('base64url')}`;
}

/** The claims of a well-signed, unexpired cookie, or null. */
export function verifySession(secret: string, cookie: string, nowSeconds = Date.now() / 1000): SessionClaims | null {
  const dot = cookie.indexOf('.');
  if (dot <= 0 || cookie.length > 4096) return null;
  const body = cookie.slice(0, dot);
  // Compared as text: base64url decoding ignores the last character's spare bits, so a byte
  // comparison would accept several spellings of one signature.
  const sig = Buffer.from(cookie.slice(dot + 1), 'utf8');
  const want = Buffer.from(mac(secret, body).toString('base64url'), 'utf8');
  if (sig.length !== want.length || !timingSafeEqual(sig, want)) return null;
  try {
    const c = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Partial<SessionClaims>;
    if (typeof c.u !== 'string' || typeof c.f !== 'string' || typeof c.exp !== 'number' || typeof c.iat !== 'number') return null;
    if (c.exp <= nowSeconds) return null;
    return c as SessionClaims;
  } catch {
    return null;
  }
}

/** The value of one cookie from a Cookie header; a value that is not valid percent-encoding
 *  (`%`, `%zz`) counts as absent, never as an error: it must not break every page. */
export function readCookie(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}
