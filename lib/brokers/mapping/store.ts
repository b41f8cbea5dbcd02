import 'server-only';
import { getStateDb } from '@/lib/state/sql';
import type { SqlRunner } from '@/lib/state/sql';
import { ConsoleError } from '@/lib/brokers/errors';
import { ZCallMapping, type CallMapping, type StoredMapping } from './schema';

/**
 * Call mappings in the console's state store (POTATOQ_CONSOLE_STATE), shared by every console
 * process on it: one row per (source broker, target broker, task name). A row whose JSON no
 * longer parses (edited by hand) reads as absent for a move, and is listed with its problem.
 */
export interface MappingStore {
  get(source: string, target: string, task: string): Promise<StoredMapping | null>;
  /** Every mapping, or those of one pair of brokers; by task name. */
  list(pair?: { source: string; target: string }): Promise<StoredMapping[]>;
  /** Inserts or replaces; answers the mapping it replaced (null: new). */
  put(m: CallMapping, by: string): Promise<StoredMapping | null>;
  /** True when there was one. */
  remove(source: string, target: string, task: string): Promise<boolean>;
}

type Row = { source: string; target: string; task: string; body: string; updated_at: string; updated_by: string };

function fromRow(r: Row): StoredMapping | null {
  let raw: unknown;
  try {
    raw = JSON.parse(r.body);
  } catch {
    return null;
  }
  const m = ZCallMapping.safeParse(raw);
  return m.success ? { mapping: m.data, updatedAt: r.updated_at, updatedBy: r.updated_by } : null;
}

const COLS = 'source, target, task, body, updated_at, updated_by';

export function createSqlMappingStore(db: Pick<SqlRunner, 'run' | 'all'>): MappingStore {
  const get = async (source: string, target: string, task: string) => {
    const rows = await db.all<Row>(`SELECT ${COLS} FROM console_call_mappings WHERE source = ? AND target = ? AND task = ?`, [
      source,
      target,
      task,
    ]);
    return rows[0] ? fromRow(rows[0]) : null;
  };
  return {
    get,
    async list(pair) {
      const rows = pair
        ? await db.all<Row>(`SELECT ${COLS} FROM console_call_mappings WHERE source = ? AND target = ? ORDER BY task`, [
            pair.source,
            pair.target,
          ])
        : await db.all<Row>(`SELECT ${COLS} FROM console_call_mappings ORDER BY source, target, task LIMIT 5000`, []);
      return rows.map(fromRow).filter((m): m is StoredMapping => m !== null);
    },
    async put(m, by) {
      const was = await get(m.source, m.target, m.task);
      await db.run(
        `INSERT INTO console_call_mappings (${COLS}) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (source, target, task) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
        [m.source, m.target, m.task, JSON.stringify(m), new Date().toISOString(), by.slice(0, 500)],
      );
      return was;
    },
    async remove(source, target, task) {
      return (await db.run('DELETE FROM console_call_mappings WHERE source = ? AND target = ? AND task = ?', [source, target, task])) > 0;
    },
  };
}

const KEY = Symbol.for('potatoq.console.mappingStore');
type Global = typeof globalThis & { [KEY]?: MappingStore };

/** The store on the console's state store; Internal (nothing moved or saved) when it cannot open. */
export async function getMappingStore(): Promise<MappingStore> {
  const g = globalThis as Global;
  if (g[KEY]) return g[KEY];
  try {
    return createSqlMappingStore(await getStateDb());
  } catch (e) {
    throw new ConsoleError('Internal', `the call mappings (in the console's state store) cannot be opened: ${String(e)}`);
  }
}

/** Tests only. */
export function setMappingStoreForTests(store: MappingStore | null): void {
  const g = globalThis as Global;
  if (store) g[KEY] = store;
  else delete g[KEY];
}
