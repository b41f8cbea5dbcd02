import 'server-only';
import type { Grant, TokenRole } from './config';

// Who a request is (the answer of resolve.ts and oidc-session.ts) and how several grants
// combine: a leaf both import, so neither imports the other.

export interface Principal {
  user: string;
  /** `metrics` only from resolveScraper: a metrics token is refused everywhere else. */
  role: TokenRole;
  via: 'none' | 'session' | 'proxy' | 'token' | 'oidc';
  readOnlyBrokers: string[];
  groups?: string[];
  /** OIDC: the user's `sub` and `iss` at the provider (sessions made before they were kept have neither). */
  sub?: string;
  iss?: string;
}

export type Resolution = { ok: true; principal: Principal } | { ok: false; code: 'Unauthorized' | 'Forbidden'; reason: string };

/** Most permissive of several grants: operator beats viewer; read-only brokers intersect. */
export function combineGrants(grants: Grant[]): Grant | null {
  if (!grants.length) return null;
  const ops = grants.filter((g) => g.role === 'operator');
  if (!ops.length) return { role: 'viewer', readOnlyBrokers: [] };
  const readOnly = ops.map((g) => new Set(g.readOnlyBrokers)).reduce((a, b) => new Set([...a].filter((x) => b.has(x))));
  return { role: 'operator', readOnlyBrokers: [...readOnly] };
}
