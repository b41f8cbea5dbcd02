import 'server-only';
import type { Capability } from '@/lib/brokers/model';
import type { AccessCheck } from '@/lib/brokers/types';

// The doctor's rows for an SQL store's table privileges (potatoq on PostgreSQL, Simple Durable
// Jobs on PostgreSQL or MySQL): one row per table, naming what is granted, what is missing and
// which capabilities a missing privilege switches off. Each system declares its needs; the
// database answers through `pgPrivileges` or `mysqlPrivileges`.

export type Priv = 'SELECT' | 'INSERT' | 'UPDATE' | 'DELETE';
export const PRIVS: readonly Priv[] = ['SELECT', 'INSERT', 'UPDATE', 'DELETE'];
export type Need = readonly [table: string, priv: Priv];

export interface GrantNeeds {
  /** Without these the console can read nothing useful here: the verdict is unusable. */
  required: readonly Need[];
  /** What each capability needs, as the system's own statements need it. */
  uses: Partial<Record<Capability, readonly Need[]>>;
}

/** true granted, false missing, null: the table is not there or it cannot be told. */
export type Has = (table: string, priv: Priv) => boolean | null;

/** Every (table, privilege) pair the needs name, in first-named order. */
export function neededPairs(needs: GrantNeeds): Need[] {
  const out: Need[] = [];
  for (const n of [...needs.required, ...Object.values(needs.uses).flat()])
    if (n && !out.some(([t, p]) => t === n[0] && p === n[1])) out.push(n);
  return out;
}

/**
 * One row per table. `store` names the database ("PostgreSQL"), `who` the login ("role
 * \"console\""), `label` how a table is shown (with its schema or prefix).
 */
export function grantChecks(store: string, who: string, needs: GrantNeeds, has: Has, label = (t: string) => t): AccessCheck[] {
  const pairs = neededPairs(needs);
  const tables = [...new Set(pairs.map(([t]) => t))];
  return tables.map((table) => {
    const privs = pairs.filter(([t]) => t === table).map(([, p]) => p);
    const missing = privs.filter((p) => has(table, p) === false);
    const unknown = privs.filter((p) => has(table, p) === null);
    const check = `${store} privileges on ${label(table)}`;
    const isMissing = ([t, p]: Need) => t === table && missing.includes(p);
    const switchesOff = (Object.entries(needs.uses) as Array<[Capability, readonly Need[]]>)
      .filter(([, ns]) => ns.some(isMissing))
      .map(([cap]) => cap);
    const fatal = needs.required.some(isMissing);
    if (missing.length)
      return {
        check,
        ok: false,
        detail: `${who} lacks ${missing.join(', ')}${fatal ? ': the console cannot read this system' : ''}${
          privs.length > missing.length ? ` (has ${privs.filter((p) => !missing.includes(p)).join(', ')})` : ''
        }`,
        switchesOff,
        ...(fatal ? { fatal } : {}),
      };
    if (unknown.length) return { check, ok: null, detail: `could not tell ${unknown.join(', ')} (is the table there?)` };
    return { check, ok: true, detail: `${who} has ${privs.join(', ')}` };
  });
}

type Row = Record<string, unknown>;

/**
 * PostgreSQL's own answer, `has_table_privilege` per pair (null where the table is not there:
 * `to_regclass` gives null and the function is strict). Written with `?` placeholders, one per
 * pair; `numbered` turns them into `$1…` for a driver that takes those.
 */
export async function pgPrivileges(
  query: (sql: string, params: unknown[]) => Promise<Row[]>,
  pairs: readonly Need[],
  numbered: boolean,
): Promise<{ who: string; has: Has }> {
  const cols = pairs.map(([, p], i) => `, has_table_privilege(to_regclass(?), '${p}') AS p${i}`).join('');
  let n = 0;
  const sql = `SELECT current_user AS who${numbered ? cols.replace(/\?/g, () => `$${++n}`) : cols}`;
  const [row] = await query(
    sql,
    pairs.map(([t]) => t),
  );
  const has: Has = (t, p) => {
    const v = row?.[`p${pairs.findIndex(([a, b]) => a === t && b === p)}`];
    return v === true ? true : v === false ? false : null;
  };
  return { who: `role "${String(row?.who ?? '?')}"`, has };
}

/**
 * MySQL's answer from information_schema: the current login's global, database (a LIKE
 * pattern) and table grants. A table the login has no privilege on is hidden from it, so a
 * missing grant and a missing table look alike (both: missing). Privileges a MySQL 8 role
 * brings are not in those views: with a role active, what is not granted directly is "cannot
 * tell" (null).
 */
export async function mysqlPrivileges(query: (sql: string, params: unknown[]) => Promise<Row[]>): Promise<{ who: string; has: Has }> {
  const grantee = "CONCAT('''', SUBSTRING_INDEX(CURRENT_USER(), '@', 1), '''@''', SUBSTRING_INDEX(CURRENT_USER(), '@', -1), '''')";
  const rows = await query(
    `SELECT 'global' AS lvl, NULL AS tbl, PRIVILEGE_TYPE AS priv FROM information_schema.USER_PRIVILEGES WHERE GRANTEE = ${grantee}
     UNION ALL SELECT 'db', NULL, PRIVILEGE_TYPE FROM information_schema.SCHEMA_PRIVILEGES WHERE GRANTEE = ${grantee} AND DATABASE() LIKE TABLE_SCHEMA
     UNION ALL SELECT 'table', TABLE_NAME, PRIVILEGE_TYPE FROM information_schema.TABLE_PRIVILEGES WHERE GRANTEE = ${grantee} AND TABLE_SCHEMA = DATABASE()`,
    [],
  );
  const [me] = await query('SELECT CURRENT_USER() AS who, CURRENT_ROLE() AS role', []);
  const role = String(me?.role ?? 'NONE');
  const viaRole = role !== 'NONE' && role !== '';
  const has: Has = (t, p) =>
    rows.some((r) => String(r.priv).toUpperCase() === p && (r.lvl !== 'table' || String(r.tbl) === t)) ? true : viaRole ? null : false;
  return { who: `user ${String(me?.who ?? '?')}`, has };
}
