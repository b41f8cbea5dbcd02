import 'server-only';

export type Role = 'viewer' | 'operator';

export interface Principal {
  user: string;
  role: Role;
}

/**
 * Who is asking. Authentication is not implemented yet: everyone is an anonymous operator.
 * This is the one place a real identity (proxy header, session) will be resolved; the gate
 * already asks it for every action and logs the answer.
 */
export async function resolvePrincipal(_headers: Headers): Promise<Principal> {
  return { user: 'anonymous', role: 'operator' };
}
