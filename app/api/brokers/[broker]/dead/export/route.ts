import { jsonError, type Params } from '@/lib/actions/http';
import { exportDead } from '@/lib/actions/export';

export const dynamic = 'force-dynamic';

/** The dead-letter list as CSV or JSON lines (lib/actions/export.ts): streamed, bounded, audited. */
export async function GET(req: Request, { params }: Params<{ broker: string }>) {
  try {
    return await exportDead((await params).broker, new URL(req.url).searchParams, req.headers);
  } catch (e) {
    return jsonError(e);
  }
}
