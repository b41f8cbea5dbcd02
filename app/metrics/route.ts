import { NextResponse } from 'next/server';
import { getAuthConfig } from '@/lib/auth/config';
import { resolveScraper } from '@/lib/auth/resolve';
import { CONTENT_TYPE, renderMetrics } from '@/lib/metrics/render';

export const dynamic = 'force-dynamic';

const text = (status: number, body: string) =>
  new NextResponse(`${body}\n`, { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });

/**
 * Prometheus metrics (text exposition format). Any principal may read it, including an API
 * token with the metrics-only role; the proxy checked the same already (proxy.ts).
 */
export async function GET(req: Request) {
  const who = resolveScraper(getAuthConfig(), req.headers);
  if (!who.ok) return text(who.code === 'Forbidden' ? 403 : 401, who.reason);
  try {
    return new NextResponse(await renderMetrics(), { status: 200, headers: { 'content-type': CONTENT_TYPE, 'cache-control': 'no-store' } });
  } catch (e) {
    console.error(JSON.stringify({ event: 'console.metrics', message: e instanceof Error ? e.message : String(e) }));
    return text(500, 'metrics could not be rendered; the console log has the details');
  }
}
