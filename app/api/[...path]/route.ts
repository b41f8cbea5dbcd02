import { jsonError } from '@/lib/actions/http';
import { ConsoleError } from '@/lib/brokers/errors';

// Any /api path no route handles answers the API's JSON error format (not the HTML 404 page),
// so a script with a typo gets `{error:{code:'NotFound',message}}` it can parse. Specific routes
// always win over this catch-all. Authentication still applies first (proxy.ts).

export const dynamic = 'force-dynamic';

function notFound(req: Request): Response {
  const path = new URL(req.url).pathname;
  return jsonError(new ConsoleError('NotFound', `no API endpoint ${req.method} ${path} (see docs/api.md)`));
}

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
