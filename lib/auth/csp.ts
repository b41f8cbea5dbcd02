import 'server-only';
// Security headers. The CSP follows Next 16's guide: a fresh nonce per request, set by the proxy
// on the request (Next reads it while rendering and puts it on its own scripts) and on the
// response; 'strict-dynamic' lets those scripts load the app's chunks. No 'unsafe-inline' for
// scripts. Styles allow inline attributes (React `style={}` props; they cannot run code), so
// no nonce there: a nonce would make browsers ignore 'unsafe-inline'.

export function contentSecurityPolicy(nonce: string, opts: { dev: boolean; https: boolean }): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${opts.dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(opts.https ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}

/** For JSON answers: nothing in them may ever be run or framed. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

export const STATIC_SECURITY_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
  'cross-origin-opener-policy': 'same-origin',
};
