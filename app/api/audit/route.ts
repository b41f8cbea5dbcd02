import { handle, parseQuery } from '@/lib/actions/http';
import { resolvePrincipal } from '@/lib/actions/principal';
import { getAuditStore } from '@/lib/audit/store';
import { ZAuditQuery } from '@/lib/audit/types';

export const dynamic = 'force-dynamic';

/** The audit trail, newest first; filters as on the audit page; `nextCursor` pages back. */
export function GET(req: Request) {
  return handle(async () => {
    await resolvePrincipal(req.headers);
    const q = parseQuery(ZAuditQuery, req);
    return (await getAuditStore()).list(q);
  });
}
