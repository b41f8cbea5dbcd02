import { handle } from '@/lib/actions/http';
import { health } from '@/lib/brokers/service';

export const dynamic = 'force-dynamic';

/** 200 even when a broker is down: the body says which one and why. */
export function GET() {
  return handle(async () => {
    const brokers = await health();
    const down = brokers.filter((b) => !b.ok).length;
    return { status: down === 0 ? 'ok' : down === brokers.length ? 'down' : 'degraded', brokers };
  });
}
