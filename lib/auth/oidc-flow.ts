import 'server-only';
import { createHmac, timingSafeEqual } from 'node:crypto';

// The short-lived cookie that carries one sign-in from /api/auth/oidc/start to the callback:
// state (CSRF on the callback), nonce (binds the ID token to this sign-in), the PKCE verifier
// (a stolen code is useless without it) and where to go afterwards. Signed with the session
// secret under its own label, so neither cookie can stand in for the other; HttpOnly,
// SameSite=Lax (the provider's redirect back is a top-level GET, which Lax lets through),
// scoped to /api/auth/oidc, cleared by the callback whatever its outcome.

export const FLOW_COOKIE = 'potatoq_oidc';
export const FLOW_PATH = '/api/auth/oidc';
export const FLOW_SECONDS = 600;

export interface Flow {
  /** state */
  s: string;
  /** nonce */
  n: string;
  /** PKCE code verifier */
  v: string;
  next: string;
  exp: number;
}

const mac = (secret: string, body: string) => createHmac('sha256', secret).update(`oidc-flow.${body}`).digest('base64url');

export function signFlow(secret: string, flow: Flow): string {
  const body = Buffer.from(JSON.stringify(flow), 'utf8').toString('base64url');
  return `${body}.${mac(secret, body)}`;
}

/** The flow of a well-signed, unexpired cookie, or null. */
export function verifyFlow(secret: string, value: string, nowSeconds = Date.now() / 1000): Flow | null {
  const dot = value.indexOf('.');
  if (dot <= 0 || value.length > 4096) return null;
  const body = value.slice(0, dot);
  const sig = Buffer.from(value.slice(dot + 1), 'utf8');
  const want = Buffer.from(mac(secret, body), 'utf8');
  if (sig.length !== want.length || !timingSafeEqual(sig, want)) return null;
  try {
    const f = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Partial<Flow>;
    if (
      typeof f.s !== 'string' ||
      typeof f.n !== 'string' ||
      typeof f.v !== 'string' ||
      typeof f.next !== 'string' ||
      typeof f.exp !== 'number'
    )
      return null;
    return f.exp > nowSeconds ? (f as Flow) : null;
  } catch {
    return null;
  }
}

export function flowCookieHeader(value: string, secure: boolean): string {
  return `${FLOW_COOKIE}=${value}; Path=${FLOW_PATH}; HttpOnly; SameSite=Lax; Max-Age=${value ? FLOW_SECONDS : 0}${secure ? '; Secure' : ''}`;
}

export const clearFlowCookie = (secure: boolean) => flowCookieHeader('', secure);
