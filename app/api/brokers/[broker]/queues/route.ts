import { handle, type Params } from '@/lib/actions/http';
import { getAuthConfig } from '@/lib/auth/config';
import { overviewFor } from '@/lib/auth/mask';
import { resolveFromHeaders } from '@/lib/auth/resolve';
import { overview } from '@/lib/brokers/service';

export const dynamic = 'force-dynamic';

export function GET(req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => {
    const who = resolveFromHeaders(getAuthConfig(), req.headers);
    return overviewFor(await overview((await params).broker), who.ok ? who.principal : null);
  });
}
