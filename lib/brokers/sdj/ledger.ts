import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import { isNoTable, type SdjQuery } from './db';

// The library's migration ledger is its only version marker (docs/systems/simple-durable-jobs.md,
// "The migration ledger"). The console's writes re-implement Go API operations statement by
// statement against the v4.5.1 schema, so they are on only where the ledger says exactly that
// schema: migrations 1–35 applied and the `uuid_binary_conversion` pre-migration complete.
// Anything else keeps reads on (the library only ever adds columns within a major version) and
// refuses writes, naming both versions.

/** The last versioned migration of SDJ v4.5.1 (`35 fan_outs_status_allow_cancelled`). */
export const VERIFIED_VERSION = 35;
export const VERIFIED_LIBRARY = 'v4.5.1';

export interface SdjSchema {
  /** Highest applied migration, null when the ledger is empty. */
  version: number | null;
  applied: number;
  preMigrationComplete: boolean;
  verified: boolean;
  /** Why writes are refused, in words, when not verified. */
  reason: string | null;
}

export async function readSchema(q: SdjQuery): Promise<SdjSchema> {
  let row: Record<string, unknown> | undefined;
  try {
    [row] = await q.all('SELECT MAX(version) AS version, COUNT(*) AS applied FROM schema_migrations');
  } catch (e) {
    if (isNoTable(e))
      throw new ConsoleError(
        'NotMigrated',
        "no Simple Durable Jobs tables here: this database has no schema_migrations table (the library's Migrate() never ran on it)",
      );
    throw e;
  }
  const version = row?.version === null || row?.version === undefined ? null : Number(row.version);
  const applied = Number(row?.applied ?? 0);
  let pre = false;
  try {
    const rows = await q.all("SELECT completed_at FROM schema_pre_migrations WHERE name = 'uuid_binary_conversion'");
    pre = rows.length > 0 && rows[0]?.completed_at !== null && rows[0]?.completed_at !== undefined;
  } catch (e) {
    if (!isNoTable(e)) throw e;
  }
  const verified = version === VERIFIED_VERSION && applied === VERIFIED_VERSION && pre;
  return { version, applied, preMigrationComplete: pre, verified, reason: verified ? null : explain(version, applied, pre) };
}

function explain(version: number | null, applied: number, pre: boolean): string {
  const here = version === null ? 'no migration applied' : `schema version ${version} (${applied} migrations applied)`;
  const base = `not verified against this console: the database has ${here}, the console was verified against version ${VERIFIED_VERSION} (Simple Durable Jobs ${VERIFIED_LIBRARY}); reads stay on, writes are refused`;
  if (version === VERIFIED_VERSION && applied === VERIFIED_VERSION && !pre)
    return `not verified against this console: the uuid_binary_conversion pre-migration is not complete; reads stay on, writes are refused`;
  return base;
}

/** Throws ReadOnly with the versions named unless the schema is the verified one. */
export function requireVerified(s: SdjSchema): void {
  if (!s.verified) throw new ConsoleError('ReadOnly', s.reason ?? 'schema not verified');
}
