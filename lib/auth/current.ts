import 'server-only';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { getAuthConfig } from './config';
import { resolveFromHeaders, type Principal } from './resolve';

/** The principal of the request being rendered (server components), or null. */
export async function currentPrincipal(): Promise<Principal | null> {
  const r = resolveFromHeaders(getAuthConfig(), await headers());
  return r.ok ? r.principal : null;
}

/**
 * The principal of the page being rendered; anyone else is sent to the login page before the
 * page reads anything. Every page but /login calls this first (app/pages-guard.test.ts checks),
 * so a request the proxy let through by mistake (a method, a path spelling) still shows no data.
 */
export async function requireReader(): Promise<Principal> {
  const r = resolveFromHeaders(getAuthConfig(), await headers());
  if (!r.ok) redirect('/login');
  return r.principal;
}

/** The CSP nonce the proxy set for this request (for `<Script nonce>`). */
export async function currentNonce(): Promise<string | undefined> {
  return (await headers()).get('x-nonce') ?? undefined;
}
