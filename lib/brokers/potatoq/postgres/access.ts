import 'server-only';
import { grantChecks, neededPairs, pgPrivileges, type GrantNeeds } from '@/lib/brokers/kit/grants';
import type { AccessCheck } from '@/lib/brokers/types';
import type { PgNames } from './names';
import type { Sql } from './pool';
import { NEEDS } from './probe';

/** What the console does with potatoq's tables: the overview reads jobs; each page and action its own. */
function needsOf(n: PgNames): GrantNeeds {
  const uses: GrantNeeds['uses'] = {
    browseDead: [[n.dead, 'SELECT']],
    results: [[n.results, 'SELECT']],
    workers: [[n.workers, 'SELECT']],
  };
  for (const [action, pairs] of Object.entries(NEEDS) as Array<
    [keyof typeof NEEDS, Array<[keyof PgNames, 'SELECT' | 'INSERT' | 'UPDATE' | 'DELETE']>]
  >)
    uses[action] = pairs.map(([t, p]) => [String(n[t]), p] as const);
  return { required: [[n.jobs, 'SELECT']], uses };
}

/** The doctor's rows: the console's role's privileges on each of potatoq's tables. */
export async function checkPgAccess(sql: Sql, n: PgNames): Promise<AccessCheck[]> {
  const needs = needsOf(n);
  const { who, has } = await pgPrivileges((text, params) => sql(text, params), neededPairs(needs), true);
  return grantChecks('PostgreSQL', who, needs, has);
}
