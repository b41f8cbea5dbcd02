import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import { getStateDb, type SqlRunner } from '@/lib/state/sql';
import { MAX_TEAM_VIEWS, type TeamView } from './schema';

/**
 * Team saved views in the console's state store (POTATOQ_CONSOLE_STATE), shared by every
 * console process on it: one row per (broker, name). Names are unique per broker; saving over
 * one is a clash unless the caller says to replace it.
 */
export interface TeamViewStore {
  /** A broker's views, by name. */
  list(broker: string): Promise<TeamView[]>;
  /** Saves a view; answers the one it replaced (null: new). Throws InvalidInput on a clash or past MAX_TEAM_VIEWS. */
  put(broker: string, view: { name: string; href: string; replace?: boolean }, by: string): Promise<TeamView | null>;
  /** The removed view, or null when there was none. */
  remove(broker: string, name: string): Promise<TeamView | null>;
}

type Row = { name: string; href: string; created_at: string; created_by: string };
const fromRow = (r: Row): TeamView => ({ name: r.name, href: r.href, createdAt: r.created_at, createdBy: r.created_by });

export function createSqlTeamViewStore(db: Pick<SqlRunner, 'run' | 'all'>): TeamViewStore {
  const get = async (broker: string, name: string) => {
    const rows = await db.all<Row>('SELECT name, href, created_at, created_by FROM console_saved_views WHERE broker = ? AND name = ?', [
      broker,
      name,
    ]);
    return rows[0] ? fromRow(rows[0]) : null;
  };
  return {
    async list(broker) {
      const rows = await db.all<Row>(
        'SELECT name, href, created_at, created_by FROM console_saved_views WHERE broker = ? ORDER BY name LIMIT ?',
        [broker, MAX_TEAM_VIEWS],
      );
      return rows.map(fromRow);
    },
    async put(broker, view, by) {
      const was = await get(broker, view.name);
      if (was && !view.replace)
        throw new ConsoleError('InvalidInput', `name: a team view named "${view.name}" already exists on this broker`, {
          name: `a team view named "${view.name}" already exists (saved by ${was.createdBy}); pick another name or replace it`,
        });
      if (!was) {
        const [n] = await db.all<{ n: number | string }>('SELECT COUNT(*) AS n FROM console_saved_views WHERE broker = ?', [broker]);
        if (Number(n?.n ?? 0) >= MAX_TEAM_VIEWS)
          throw new ConsoleError('InvalidInput', `name: this broker already has ${MAX_TEAM_VIEWS} team views; remove one first`, {
            name: `at most ${MAX_TEAM_VIEWS} team views per broker; remove one first`,
          });
      }
      // A new name is a plain INSERT: a save of the same name by another console at the same
      // moment loses to the primary key (an error), never to a silent overwrite.
      const values = [broker, view.name, view.href, new Date().toISOString(), by.slice(0, 500)];
      const insert = 'INSERT INTO console_saved_views (broker, name, href, created_at, created_by) VALUES (?, ?, ?, ?, ?)';
      await db.run(
        was
          ? `${insert} ON CONFLICT (broker, name) DO UPDATE SET href = excluded.href, created_at = excluded.created_at, created_by = excluded.created_by`
          : insert,
        values,
      );
      return was;
    },
    async remove(broker, name) {
      const was = await get(broker, name);
      if (was) await db.run('DELETE FROM console_saved_views WHERE broker = ? AND name = ?', [broker, name]);
      return was;
    },
  };
}

/** The store on the console's state store; Internal (nothing saved) when it cannot open. */
export async function getTeamViewStore(): Promise<TeamViewStore> {
  try {
    return createSqlTeamViewStore(await getStateDb());
  } catch (e) {
    throw new ConsoleError('Internal', `the team views (in the console's state store) cannot be opened: ${String(e)}`);
  }
}
