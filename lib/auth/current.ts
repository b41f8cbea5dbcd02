import 'server-only';
import { headers } from 'next/headers';
import { getAuthConfig } from './config';
import { resolveFromHeaders, type Principal } from './resolve';

/** The principal of the request being rendered (server components), or null. */
export async function currentPrincipal(): Promise<Principal | null> {
  const r = resolveFromHeaders(getAuthConfig(), await headers());
  return r.ok ? r.principal : null;
}

/** The CSP nonce the proxy set for this request (for `<Script nonce>`). */
export async function currentNonce(): Promise<string | undefined> {
  return (await headers()).get('x-nonce') ?? undefined;
}
