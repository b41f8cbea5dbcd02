// Test helpers for the PostgreSQL adapter and round trips (not shipped code): a fresh schema
// per test migrated by the real `potatoq migrate`, dropped afterwards, and the loud skip.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { POTATOQ, ROOT } from '@/tests/support/potatoq-seeder';

export const PG_URL = process.env.POTATOQ_CONSOLE_TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
export const PY_DIR = path.join(ROOT, 'tests/py');

/** True when PostgreSQL answers; otherwise a loud line, or a failure when services are required. */
export async function pgAvailable(): Promise<boolean> {
  const c = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await c.connect();
    await c.query('SELECT 1');
    return true;
  } catch (e) {
    const line = `\n!!! PostgreSQL is not reachable at ${PG_URL.replace(/\/\/[^@]*@/, '//***@')} (${(e as Error).message}): SKIPPING the PostgreSQL suites !!!\n`;
    if (process.env.POTATOQ_CONSOLE_REQUIRE_SERVICES === '1') throw new Error(line);
    console.warn(line);
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}

export const newSchemaName = () => `pqt_${randomBytes(5).toString('hex')}`;

export interface PgTarget {
  schema: string;
  prefix: string;
  options: Record<string, unknown>;
  env: NodeJS.ProcessEnv;
}

/** A new schema with potatoq's tables, created by the real `potatoq migrate` (in `url`'s
 *  database: the test database unless a test made its own). */
export function migratedSchema(prefix = 'potatoq_', extra: Record<string, unknown> = {}, url = PG_URL): PgTarget {
  const schema = newSchemaName();
  const options = { schema, table_prefix: prefix, ...extra };
  const env = {
    ...process.env,
    PQ_PG_URL: url,
    PQ_PG_OPTIONS: JSON.stringify(options),
    POTATOQ_NO_EMOJI: '1',
    NO_COLOR: '1',
    PYTHONUNBUFFERED: '1',
  };
  execFileSync(POTATOQ, ['-A', 'rt_pg_tasks', '--no-color', '--no-emoji', 'migrate'], { cwd: PY_DIR, env, stdio: 'pipe' });
  return { schema, prefix, options: { schema, table_prefix: prefix }, env };
}

/** PG_URL with its sessions' search_path set to `schema` (a test's own tables in their own schema). */
export const searchPathUrl = (schema: string) =>
  `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;

export async function sqlAdmin<R = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<R[]> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    return (await c.query(text, params)).rows as R[];
  } finally {
    await c.end().catch(() => undefined);
  }
}

export async function dropSchema(schema: string): Promise<void> {
  await sqlAdmin(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}

/** A table of the target as SQL, e.g. `"pqt_x"."potatoq_dead"`. */
export const tableOf = (t: PgTarget, name: string) => `"${t.schema}"."${(t.prefix + name).replace(/"/g, '""')}"`;

/** The compact message potatoq writes for `task.delay(i)` (key order as potatoq's). */
export const messageSql = (id: string, task: string, queue: string, arg: string) =>
  `'{"task":"${task}","args":[' || ${arg} || '],"id":"' || ${id} || '","queue":"' || ${queue} || '","root_id":"' || ${id} || '","enqueued_at":1796000000.5,"v":1}'`;

/** `n` dead letters in potatoq's layout, inserted in one statement; returns their ids. */
export async function seedDeadLetters(t: PgTarget, n: number, queue: string, tag: string): Promise<string[]> {
  const rows = await sqlAdmin<{ id: string }>(
    `INSERT INTO ${tableOf(t, 'dead')} (id, queue, task, reason, died_at, payload)
     SELECT '${tag}-' || i, $1, 'ct.bulk', E'Traceback (most recent call last):\\nValueError: bulk ' || (i % 3), now() - make_interval(secs => i), ${messageSql(`'${tag}-' || i`, 'ct.bulk', '$1::text', 'i::text')}
     FROM generate_series(1, $2::int) AS i RETURNING id`,
    [queue, n],
  );
  return rows.map((r) => r.id);
}
