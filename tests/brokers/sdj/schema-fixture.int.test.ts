// The store layer's tests create the SDJ schema from the recorded facts (schema-fixture.ts); this
// file checks that what the fixture creates is what docs/systems/simple-durable-jobs.md's appendix
// says the real `Migrate()` made: MySQL's `SHOW CREATE TABLE` verbatim, PostgreSQL rebuilt from
// the catalog in the appendix's format. A fixture that drifted from the doc fails here.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDb, serverAvailable, type Dialect, type TestDb } from '@/tests/sdj/databases';
import { createSdjSchema, MIGRATIONS } from './schema-fixture';
import { guarded } from './support';

const DOC = readFileSync(path.resolve(__dirname, '../../../docs/systems/simple-durable-jobs.md'), 'utf8');
const block = (heading: string) => DOC.split(heading)[1]!.split('```sql')[1]!.split('```')[0]!;

function appendixPg(): Map<string, string> {
  const parts = `\n${block('#### PostgreSQL 15')}`.split(/\n-- (\w+)\n/);
  const m = new Map<string, string>();
  for (let i = 1; i < parts.length; i += 2) m.set(parts[i]!, parts[i + 1]!.trim());
  return m;
}

function appendixMysql(): Map<string, string> {
  const m = new Map<string, string>();
  for (const s of block('#### MySQL 9.7').split(';\n')) {
    const name = /CREATE TABLE `(\w+)`/.exec(s)?.[1];
    if (name) m.set(name, s.trim());
  }
  return m;
}

/** One table in the appendix's PostgreSQL format, from the catalog. */
async function dumpPgTable(db: TestDb, table: string): Promise<string> {
  const cols = await db.query<{
    column_name: string;
    data_type: string;
    len: number | null;
    is_nullable: string;
    column_default: string | null;
  }>(
    `SELECT column_name, data_type, character_maximum_length AS len, is_nullable, column_default
       FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`,
    [table],
  );
  const cons = await db.query<{ conname: string; def: string }>(
    `SELECT conname, pg_get_constraintdef(c.oid) AS def FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
      WHERE t.relname = $1 AND t.relnamespace = current_schema()::regnamespace ORDER BY conname`,
    [table],
  );
  const idx = await db.query<{ indexname: string; indexdef: string }>(
    `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = $1 ORDER BY indexname`,
    [table],
  );
  const lines = [
    ...cols.map(
      (c) =>
        `${c.column_name} ${c.data_type}${c.len ? `(${c.len})` : ''}${c.is_nullable === 'NO' ? ' NOT NULL' : ''}${c.column_default ? ` DEFAULT ${c.column_default}` : ''}`,
    ),
    ...cons.map((c) => `CONSTRAINT ${c.conname} ${c.def}`),
  ];
  const pkeys = new Set(cons.map((c) => c.conname));
  const indexes = idx
    .filter((i) => !pkeys.has(i.indexname))
    .map((i) => `${i.indexdef.replace(/ ON \w+\./, ' ON ').replace(' USING btree ', ' ')};`);
  return [`TABLE ${table} (`, lines.map((l) => `  ${l}`).join(',\n'), ');', ...indexes].join('\n');
}

for (const dialect of ['postgres', 'mysql'] as Dialect[]) {
  const up = await serverAvailable(dialect);
  describe.skipIf(!up)(`SDJ schema fixture on ${dialect}`, () => {
    let db: TestDb | undefined;
    afterEach(async () => {
      await db?.drop();
      db = undefined;
    });

    it('creates exactly the twelve tables of the appendix, as dumped', async () => {
      db = guarded(await createTestDb(dialect));
      await createSdjSchema(db);
      const want = dialect === 'postgres' ? appendixPg() : appendixMysql();
      expect(want.size).toBe(12);
      for (const [table, text] of want) {
        const got =
          dialect === 'postgres'
            ? await dumpPgTable(db, table)
            : String((await db.query(`SHOW CREATE TABLE \`${table}\``))[0]!['Create Table']);
        expect(got, table).toBe(text);
      }
    });

    it('fills the ledger as the appendix lists it: versions 1–35, the pre-migration complete', async () => {
      db = guarded(await createTestDb(dialect));
      await createSdjSchema(db);
      const rows = await db.query<{ version: unknown; name: string }>('SELECT version, name FROM schema_migrations ORDER BY version');
      expect(rows.map((r) => [Number(r.version), r.name])).toEqual(MIGRATIONS.map(([v, n]) => [v, n]));
      expect(DOC).toContain('35 fan_outs_status_allow_cancelled');
      const pre = await db.query('SELECT completed_at FROM schema_pre_migrations');
      expect(pre).toHaveLength(1);
      expect(pre[0]!.completed_at).not.toBeNull();
    });
  });
}
