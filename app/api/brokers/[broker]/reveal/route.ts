import { handle, readJsonBody, type Params } from '@/lib/actions/http';
import { revealArgs } from '@/lib/actions/reveal';

export const dynamic = 'force-dynamic';

/** `{ kind: "task" | "dead", ids: [id] }` -> the unredacted detail; audited. */
export function POST(req: Request, { params }: Params<{ broker: string }>) {
  return handle(async () => revealArgs((await params).broker, await readJsonBody(req), req.headers));
}
