import { NextResponse } from 'next/server';

export const dynamic = 'force-dynamic';

/**
 * Liveness for load balancers and orchestrators: answers without signing in in every auth
 * mode, and so says nothing but that this process serves requests (no broker names, no
 * errors). `GET /api/health` has the per-broker detail, for signed-in callers.
 */
export function GET() {
  return NextResponse.json({ status: 'live' }, { headers: { 'cache-control': 'no-store' } });
}
