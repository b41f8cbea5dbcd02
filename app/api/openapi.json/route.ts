import { handle } from '@/lib/actions/http';
import { openApiDocument } from '@/lib/api/openapi';
import { getAuthConfig } from '@/lib/auth/config';
import { brokerList } from '@/lib/brokers/service';
import pkg from '@/package.json';

export const dynamic = 'force-dynamic';

/** The OpenAPI 3.1 description of this console's API (its brokers as the `broker` values). */
export function GET() {
  return handle(async () => openApiDocument({ brokers: brokerList().map((b) => b.id), mode: getAuthConfig().mode, version: pkg.version }));
}
