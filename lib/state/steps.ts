import 'server-only';
import { ADDED_COLUMNS as AUDIT_COLUMNS, auditSchema } from '@/lib/audit/schema';
import { MOVE_JOURNAL_DDL } from '@/lib/brokers/move-journal';
import { BULK_DDL } from '@/lib/bulk/store-sql';
import { LEASE_DDL } from '@/lib/leases/schema';
import { ADDED_COLUMNS as TREND_COLUMNS, trendSchema } from '@/lib/trends/store-sql';

export type Dialect = 'sqlite' | 'postgres';

/**
 * One step of the console's own schema. Its id is recorded in the ledger once it ran and is
 * never renamed or reused; a later change is a new step appended to STEPS. Every statement is
 * idempotent (`IF NOT EXISTS`), and so is adding a column (only where the table lacks it): a
 * state store made by a release before the ledger existed runs every step once, over tables it
 * already has, and keeps its rows.
 */
export interface SchemaStep {
  id: string;
  statements(d: Dialect): readonly string[];
  /** Columns added to a table after its first release: [table, column, type]. */
  columns?(d: Dialect): ReadonlyArray<readonly [table: string, column: string, type: string]>;
}

const split = (script: string) =>
  script
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);

/** The console's schema, in order. Append only. */
export const STEPS: readonly SchemaStep[] = [
  {
    id: 'audit-1',
    statements: (d) =>
      split(
        d === 'sqlite'
          ? auditSchema({ seq: 'INTEGER PRIMARY KEY AUTOINCREMENT', bigint: 'INTEGER' })
          : auditSchema({ seq: 'BIGSERIAL PRIMARY KEY', bigint: 'BIGINT' }),
      ),
    columns: () => AUDIT_COLUMNS.map(([name, type]) => ['console_audit', name, type] as const),
  },
  { id: 'bulk-1', statements: () => BULK_DDL },
  { id: 'move-journal-1', statements: () => MOVE_JOURNAL_DDL },
  { id: 'pause-leases-1', statements: () => LEASE_DDL },
  {
    id: 'trends-1',
    statements: (d) => (d === 'sqlite' ? trendSchema('INTEGER', 'REAL') : trendSchema('BIGINT', 'DOUBLE PRECISION')),
    columns: (d) => TREND_COLUMNS.map((c) => ['console_trend_samples', c, d === 'sqlite' ? 'INTEGER' : 'BIGINT'] as const),
  },
];
