// Test support: a "worker" holding a jobs row with SELECT … FOR UPDATE on its own connection,
// as the library's claim transaction does, until released (rolled back).
import mysql from 'mysql2/promise';
import pg from 'pg';
import type { TestDb } from '@/tests/sdj/databases';
import { uuidBytes } from '@/tests/sdj/jobs-table';

export async function holdRow(db: TestDb, id: string): Promise<() => Promise<void>> {
  if (db.dialect === 'postgres') {
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    await c.query('BEGIN');
    await c.query('SELECT id FROM jobs WHERE id = $1 FOR UPDATE', [id]);
    return async () => {
      await c.query('ROLLBACK');
      await c.end();
    };
  }
  const c = await mysql.createConnection({ uri: db.url });
  await c.query('START TRANSACTION');
  await c.query('SELECT id FROM jobs WHERE id = ? FOR UPDATE', [uuidBytes(id)]);
  return async () => {
    await c.query('ROLLBACK');
    await c.end();
  };
}
