import { handle, parseQuery, type Params } from '@/lib/actions/http';
import { ZTaskListQuery } from '@/lib/brokers/schema';
import { readTasks as listTasks } from '@/lib/auth/redact';

export const dynamic = 'force-dynamic';

export function GET(req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => listTasks((await params).broker, parseQuery(ZTaskListQuery, req)));
}
