import 'server-only';
import { allCapabilities, listing, noWorkflows, type Capabilities } from '@/lib/brokers/schema';
import { POTATOQ_NO_PAUSE, POTATOQ_NO_RESULT_RANGE, POTATOQ_NO_WORKFLOWS, POTATOQ_TABLE_MODEL } from '../model';
import { notMigrated } from './errors';
import type { PgNames } from './names';
import type { Sql } from './pool';

export interface Probe {
  serverInfo: string;
  capabilities: Capabilities;
  /** Why every write is off, when it is. */
  readOnlyWhy: string | null;
}

type Priv = 'SELECT' | 'INSERT' | 'UPDATE' | 'DELETE';
const TABLES = ['jobs', 'results', 'dead', 'workers'] as const;
type Table = (typeof TABLES)[number];

/** What each action needs, as potatoq's own statements need it. */
export const NEEDS: Record<'replay' | 'discard' | 'revoke' | 'purge' | 'enqueue', Array<[Table, Priv]>> = {
  replay: [
    ['dead', 'SELECT'],
    ['dead', 'UPDATE'],
    ['dead', 'DELETE'],
    ['jobs', 'INSERT'],
    ['results', 'DELETE'],
  ],
  discard: [
    ['dead', 'SELECT'],
    ['dead', 'DELETE'],
  ],
  revoke: [
    ['jobs', 'DELETE'],
    ['results', 'INSERT'],
    ['results', 'UPDATE'],
  ],
  purge: [['jobs', 'DELETE']],
  enqueue: [['jobs', 'INSERT']],
};

/**
 * Checks potatoq's tables exist (never creates them: NotMigrated says to run `potatoq
 * migrate`) and which actions the console's role may perform, with `has_table_privilege`.
 * `FOR UPDATE` needs UPDATE, hence replay's and discard's needs. A standby turns all writes off.
 */
export async function probe(sql: Sql, n: PgNames, configuredReadOnly: boolean): Promise<Probe> {
  const cols = TABLES.map((t, i) => `to_regclass($${i + 1}) AS ${t}`).join(', ');
  const [regs] = await sql<Record<Table, string | null>>(
    `SELECT ${cols}`,
    TABLES.map((t) => n[t]),
  );
  if (!regs || TABLES.some((t) => regs[t] === null)) throw notMigrated(n);
  const privs = TABLES.flatMap((t) => (['SELECT', 'INSERT', 'UPDATE', 'DELETE'] as const).map((p) => [t, p] as const));
  const checks = privs.map(([t, p], i) => `has_table_privilege($${TABLES.indexOf(t) + 1}::regclass, '${p}') AS p${i}`).join(', ');
  const [row] = await sql<Record<string, unknown>>(
    `SELECT current_setting('server_version') AS version, pg_is_in_recovery() AS standby, current_user AS role, ${checks}`,
    TABLES.map((t) => n[t]),
  );
  const has = (t: Table, p: Priv) => row?.[`p${privs.findIndex(([a, b]) => a === t && b === p)}`] === true;
  const caps = allCapabilities(POTATOQ_TABLE_MODEL.states);
  caps.pause = { ...POTATOQ_NO_PAUSE };
  caps.resultRange = { ...POTATOQ_NO_RESULT_RANGE };
  Object.assign(caps, noWorkflows(POTATOQ_NO_WORKFLOWS));
  for (const t of ['jobs', 'dead', 'results', 'workers'] as const) {
    if (!has(t, 'SELECT')) {
      const why = `the console's role cannot read ${n[t]}`;
      if (t === 'jobs') Object.assign(caps, listing(POTATOQ_TABLE_MODEL.states, { on: false, why }));
      if (t === 'dead') Object.assign(caps, { browseDead: { on: false, why }, deadRange: { on: false, why } });
      if (t === 'results') caps.results = { on: false, why };
      if (t === 'workers') caps.workers = { on: false, why };
    }
  }
  const readOnlyWhy = configuredReadOnly
    ? 'configured read-only'
    : row?.standby === true
      ? 'connected to a standby (read-only) server'
      : null;
  for (const [action, needs] of Object.entries(NEEDS) as Array<[keyof typeof NEEDS, Array<[Table, Priv]>]>) {
    const missing = needs.filter(([t, p]) => !has(t, p));
    if (readOnlyWhy) caps[action] = { on: false, why: readOnlyWhy };
    else if (missing.length) {
      caps[action] = {
        on: false,
        why: `the console's role "${String(row?.role)}" lacks ${missing.map(([t, p]) => `${p} on ${n[t]}`).join(', ')}`,
      };
    }
  }
  const anyWrite = Object.keys(NEEDS).some((k) => caps[k as keyof typeof NEEDS].on);
  return {
    serverInfo: `PostgreSQL ${String(row?.version ?? '?')}${n.schema ? ` (schema ${n.schema}, prefix ${n.prefix})` : ` (prefix ${n.prefix})`}`,
    capabilities: caps,
    readOnlyWhy: readOnlyWhy ?? (anyWrite ? null : `the console's role "${String(row?.role)}" may only read potatoq's tables`),
  };
}
