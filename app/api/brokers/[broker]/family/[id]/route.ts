import { handle, parseQuery, type Params } from '@/lib/actions/http';
import { ZFamilyQuery } from '@/lib/brokers/family/schema';
import { getFamily } from '@/lib/brokers/service';

export const dynamic = 'force-dynamic';

export function GET(req: Request, { params }: Params<{ broker: string; id: string }>) {
  return handle(async () => {
    const { broker, id } = await params;
    return getFamily(broker, id, parseQuery(ZFamilyQuery, req));
  });
}
