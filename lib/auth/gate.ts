import 'server-only';
import { getAuthConfig } from './config';
import { API_CSP, STATIC_SECURITY_HEADERS, contentSecurityPolicy } from './csp';
import { isHttps, servedOverHttps } from './client';
import { getHostRule, hostAllowed } from './hosts';
import { resolveFromHeaders, resolveScraper } from './resolve';

// The checks every request passes before anything answers it, whatever its method: Host names
// the console is not served on (DNS rebinding), malformed paths, methods pages do not take, and,
// in accounts/proxy/oidc modes, anyone not signed in. Pure given the configuration and the
// request's headers, so the two places that answer requests decide the same way: proxy.ts (in
// front of every page and route Next serves) and lib/http/fast-reads.ts (the two polled JSON
// reads answered before Next's routing).

export const PUBLIC_PATHS = [
  '/login',
  '/api/auth/login',
  '/api/auth/logout',
  '/api/auth/oidc/start',
  '/api/auth/oidc/callback',
  '/api/health/live',
  '/api/health/ready',
  '/theme-init.js',
  '/icon.svg',
  '/favicon.ico',
  '/robots.txt',
];

const HSTS = 'max-age=31536000';

export interface GateRequest {
  method: string;
  pathname: string;
  /** The query string with its `?`, or ''. */
  search: string;
  headers: Headers;
  /** The scheme the request arrived on; a trusted proxy's `x-forwarded-proto` overrides it. */
  protocol: 'http' | 'https';
}

/** What to answer with, or that the request goes on (with the headers every answer carries). */
export type GateVerdict =
  | { kind: 'pass'; nonce: string; csp: string; headers: Record<string, string> }
  | { kind: 'text'; status: number; text: string; headers: Record<string, string> }
  | { kind: 'json'; status: number; body: { error: { code: string; message: string } }; headers: Record<string, string> }
  /** A page read by someone not signed in: to the login page, coming back to `next` ('' for /). */
  | { kind: 'login'; next: string; headers: Record<string, string> };

/** The security headers of every answer: the CSP, the static ones, HSTS over HTTPS. */
export function securityHeaders(csp: string, hsts: boolean): Record<string, string> {
  return { 'content-security-policy': csp, ...STATIC_SECURITY_HEADERS, ...(hsts ? { 'strict-transport-security': HSTS } : {}) };
}

// An API answer's set is the same for every request but for HSTS: built once each, frozen
// (every caller copies or only reads them).
const API_HEADERS = [false, true].map((hsts) => Object.freeze(securityHeaders(API_CSP, hsts)));
const apiHeaders = (hsts: boolean) => API_HEADERS[hsts ? 1 : 0] as Record<string, string>;

/** Every path segment decodes as UTF-8 (`%ff` would otherwise fail later, as a 500). */
function wellEncoded(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

/** Pages answer GET and HEAD, and POST only as a server action (Next-Action header). */
function pageMethodAllowed(method: string, headers: Headers): boolean {
  return method === 'GET' || method === 'HEAD' || (method === 'POST' && headers.has('next-action'));
}

export function gate(req: GateRequest): GateVerdict {
  const { pathname, search, headers } = req;
  // /metrics answers like an API (401/403 as text for a scraper, never a login redirect), and
  // is the one path a `metrics` token may read.
  const isMetrics = pathname === '/metrics';
  const isApi = pathname.startsWith('/api/') || isMetrics;
  const config = getAuthConfig();
  // Only a page's CSP carries a nonce (its scripts); an API answer runs nothing, so it needs none.
  const nonce = isApi ? '' : Buffer.from(crypto.randomUUID()).toString('base64');
  const csp = isApi
    ? API_CSP
    : contentSecurityPolicy(nonce, { dev: process.env.NODE_ENV === 'development', https: servedOverHttps(config, headers, req.protocol) });
  const secure = isApi ? apiHeaders(isHttps(config, headers)) : securityHeaders(csp, isHttps(config, headers));
  const text = (status: number, t: string, extra: Record<string, string> = {}): GateVerdict => ({
    kind: 'text',
    status,
    text: t,
    headers: { ...secure, ...extra },
  });

  if (!hostAllowed(getHostRule(config.mode), headers.get('host'))) {
    return text(421, 'this console is not served under that host name (POTATOQ_CONSOLE_ALLOWED_HOSTS)');
  }
  if (!wellEncoded(pathname)) return text(400, 'malformed percent-encoding in the path');
  if (!isApi && !pageMethodAllowed(req.method, headers)) return text(405, 'method not allowed', { allow: 'GET, HEAD' });

  const open = PUBLIC_PATHS.includes(pathname) || config.mode === 'none';
  // Every method: a POST, PUT or DELETE to a page renders it as a GET would.
  if (!open) {
    const who = isMetrics ? resolveScraper(config, headers) : resolveFromHeaders(config, headers);
    if (!who.ok) {
      const status = who.code === 'Forbidden' ? 403 : 401;
      if (isApi) return { kind: 'json', status, body: { error: { code: who.code, message: who.reason } }, headers: secure };
      const reading = req.method === 'GET' || req.method === 'HEAD';
      if (
        reading &&
        (config.mode === 'accounts' || config.mode === 'oidc') &&
        who.code === 'Unauthorized' &&
        !headers.has('authorization')
      ) {
        return { kind: 'login', next: pathname === '/' ? '' : `${pathname}${search}`, headers: secure };
      }
      return text(status, who.reason);
    }
  }
  return { kind: 'pass', nonce, csp, headers: secure };
}
