import { z } from 'zod';
import { handle, parseQuery, type Params } from '@/lib/actions/http';
import { deadGroups } from '@/lib/brokers/service';

export const dynamic = 'force-dynamic';

const ZGroupsQuery = z.object({ queue: z.string().max(500).optional().transform((v) => v || undefined) });

export function GET(req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => ({ groups: await deadGroups((await params).broker, parseQuery(ZGroupsQuery, req)) }));
}
