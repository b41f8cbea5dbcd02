import { handle, readJsonBody } from '@/lib/actions/http';
import { exportMappingsOp, importMappingsOp } from '@/lib/actions/mappings';

export const dynamic = 'force-dynamic';

/** Every call mapping, as JSON the import takes back. */
export function GET(req: Request) {
  return handle(() => exportMappingsOp(req.headers));
}

/** An export imported: all validated first, then saved (audited per source broker). */
export function POST(req: Request) {
  return handle(async () => importMappingsOp(await readJsonBody(req), req.headers));
}
