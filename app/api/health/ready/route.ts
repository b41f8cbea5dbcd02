import { handle } from '@/lib/actions/http';
import { ConsoleError } from '@/lib/brokers/errors';
import { stateStoreAnswers } from '@/lib/state/ready';

export const dynamic = 'force-dynamic';

/**
 * Readiness for load balancers: 200 once this instance's state store (audit trail, sign-in
 * limits, bulk jobs, leases) answers, 503 while it does not. Like /api/health/live it answers
 * without signing in and so names nothing. Brokers are not checked here: see /api/health.
 */
export function GET() {
  return handle(async () => {
    if (!(await stateStoreAnswers())) throw new ConsoleError('BrokerUnavailable', "this console's state store does not answer");
    return { status: 'ready' as const };
  });
}
