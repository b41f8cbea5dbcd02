import 'server-only';
import { getAuthConfig } from '@/lib/auth/config';
import { overviewFor } from '@/lib/auth/mask';
import { readDead } from '@/lib/auth/redact';
import { resolveFromHeaders } from '@/lib/auth/resolve';
import { ZDeadListQuery } from '@/lib/brokers/schema';
import { overview } from '@/lib/brokers/service';
import { parseParams } from './http';

// The two reads the pages poll, shared by their route handlers (app/api/brokers/[broker]/dead
// and /queues) and the fast reads (lib/http/fast-reads.ts), so both answer exactly alike.

/** GET /api/brokers/:broker/dead: a page of dead letters (arguments redacted when configured). */
export const deadListRead = (broker: string, params: URLSearchParams) => readDead(broker, parseParams(ZDeadListQuery, params));

/** GET /api/brokers/:broker/queues: the overview, masked for the asking principal. */
export async function overviewRead(broker: string, headers: Headers) {
  const who = resolveFromHeaders(getAuthConfig(), headers);
  return overviewFor(await overview(broker), who.ok ? who.principal : null);
}
