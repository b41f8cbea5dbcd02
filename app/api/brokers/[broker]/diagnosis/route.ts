import { handle, parseQuery, type Params } from '@/lib/actions/http';
import { ZDiagnosisQuery } from '@/lib/brokers/schema';
import { diagnose } from '@/lib/brokers/service';

export const dynamic = 'force-dynamic';

export function GET(req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => diagnose((await params).broker, parseQuery(ZDiagnosisQuery, req).overdue));
}
