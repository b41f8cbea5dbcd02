import { NextResponse } from 'next/server';
import { getAuthConfig } from '@/lib/auth/config';
import { resolveFromHeaders } from '@/lib/auth/resolve';
import { getAlertSettings } from '@/lib/alerts/config';
import { alertRules } from '@/lib/alerts/rules';
import { watchedTargets } from '@/lib/alerts/targets';

export const dynamic = 'force-dynamic';

const text = (status: number, body: string, type = 'text/plain; charset=utf-8') =>
  new NextResponse(body, { status, headers: { 'content-type': type, 'cache-control': 'no-store' } });

/**
 * Prometheus alert rules for the configured queue-health targets (YAML), each with the
 * console's link to its filtered view. Any viewer or operator (not a metrics-only token: the
 * gate refuses it every path but /metrics); asked again here, as every route does.
 */
export async function GET(req: Request) {
  const who = resolveFromHeaders(getAuthConfig(), req.headers);
  if (!who.ok) return text(who.code === 'Forbidden' ? 403 : 401, `${who.reason}\n`);
  const s = await getAlertSettings();
  return text(200, alertRules(await watchedTargets(), s.publicUrl), 'application/yaml; charset=utf-8');
}
