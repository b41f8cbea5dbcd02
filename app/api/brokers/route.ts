import { handle } from '@/lib/actions/http';
import { brokerList } from '@/lib/brokers/service';

export const dynamic = 'force-dynamic';

export function GET() {
  return handle(async () => ({ brokers: brokerList() }));
}
