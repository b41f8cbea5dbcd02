import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import { getAuthConfig } from '@/lib/auth/config';
import { resolveFromHeaders, type Principal } from '@/lib/auth/resolve';

export type { Role } from '@/lib/auth/config';
export type { Principal } from '@/lib/auth/resolve';

/**
 * Who is asking: an API token (`Authorization: Bearer`), else by the configured mode — anyone
 * is the anonymous operator in mode none, a signed session cookie in accounts mode, the
 * trusted proxy's user header in proxy mode. Throws Unauthorized (401) or Forbidden (403).
 */
export async function resolvePrincipal(headers: Headers): Promise<Principal> {
  const r = resolveFromHeaders(getAuthConfig(), headers);
  if (!r.ok) throw new ConsoleError(r.code, r.reason);
  return r.principal;
}
