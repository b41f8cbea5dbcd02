import 'server-only';
import { NextResponse } from 'next/server';
import type { Refusal } from './oidc';

const TITLES: Record<Refusal['status'], string> = {
  400: 'Sign-in not completed',
  401: 'Sign-in refused',
  403: 'No access to this console',
  404: 'Not found',
  502: 'Identity provider unavailable',
};

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A plain page (no scripts or styles: API routes get CSP `default-src 'none'`) saying why, with a way back. */
export function oidcRefusalPage(r: Refusal): NextResponse {
  const title = TITLES[r.status];
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} · potatoq console</title></head><body>
<h1>${title}</h1>
<p data-testid="oidc-refusal" data-status="${r.status}">${escape(r.message)}</p>
<p><a href="/login" data-testid="oidc-retry">Back to sign-in</a></p>
</body></html>`;
  return new NextResponse(html, { status: r.status, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } });
}
