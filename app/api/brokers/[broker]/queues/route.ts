import { handle, type Params } from '@/lib/actions/http';
import { overviewRead } from '@/lib/actions/reads';

export const dynamic = 'force-dynamic';

// Answered by lib/http/fast-reads.ts before Next's routing in a production server; this handler
// serves it in development and wherever the fast reads do not apply (HEAD, a request body).
export async function GET(req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => overviewRead((await params).broker, req.headers, new URL(req.url).searchParams));
}
