import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import { getStateDb, type SqlRunner } from '@/lib/state/sql';
import { MAX_TEAM_VIEWS, type TeamView, type TeamViewEdit } from './schema';

/**
 * Team saved views in the console's state store (POTATOQ_CONSOLE_STATE), shared by every
 * console process on it: one row per (broker, name). Names are unique per broker; saving over
 * one is a clash unless the caller says to replace it.
 */
export interface TeamViewStore {
  /** A broker's views, by name. */
  list(broker: string): Promise<TeamView[]>;
  /** Saves a view; answers the one it replaced (null: new). Throws InvalidInput on a clash or past MAX_TEAM_VIEWS. */
  put(broker: string, view: { name: string; href: string; description?: string; replace?: boolean }, by: string): Promise<TeamView | null>;
  /**
   * Edits a view in place (rename, link, description) when it is still at `edit.version`:
   * NotFound when it is gone, Conflict when someone edited or replaced it since it was read,
   * InvalidInput (field `newName`) when the new name is another view's. Answers before and after.
   */
  edit(broker: string, edit: TeamViewEdit, by: string): Promise<{ before: TeamView; after: TeamView }>;
  /** The removed view, or null when there was none. */
  remove(broker: string, name: string): Promise<TeamView | null>;
}

type Row = {
  name: string;
  href: string;
  description: string | null;
  created_at: string;
  created_by: string;
  version: number | string | null;
  updated_at: string | null;
  updated_by: string | null;
};
const COLUMNS = 'name, href, description, created_at, created_by, version, updated_at, updated_by';
const fromRow = (r: Row): TeamView => ({
  name: r.name,
  href: r.href,
  description: r.description ?? '',
  createdAt: r.created_at,
  createdBy: r.created_by,
  version: Number(r.version ?? 1),
  updatedAt: r.updated_at,
  updatedBy: r.updated_by,
});
const clash = (name: string, by: string) =>
  new ConsoleError('InvalidInput', `newName: a team view named "${name}" already exists on this broker`, {
    newName: `a team view named "${name}" already exists (saved by ${by}); pick another name`,
  });

export function createSqlTeamViewStore(db: Pick<SqlRunner, 'run' | 'all'>): TeamViewStore {
  const get = async (broker: string, name: string) => {
    const rows = await db.all<Row>(`SELECT ${COLUMNS} FROM console_saved_views WHERE broker = ? AND name = ?`, [broker, name]);
    return rows[0] ? fromRow(rows[0]) : null;
  };
  return {
    async list(broker) {
      const rows = await db.all<Row>(`SELECT ${COLUMNS} FROM console_saved_views WHERE broker = ? ORDER BY name LIMIT ?`, [
        broker,
        MAX_TEAM_VIEWS,
      ]);
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
      // A replace is a new view under the old name: its version still goes up, so an edit
      // begun on the old one is refused rather than writing over the replacement.
      const values = [
        broker,
        view.name,
        view.href,
        view.description ?? '',
        new Date().toISOString(),
        by.slice(0, 500),
        (was?.version ?? 0) + 1,
      ];
      const insert = `INSERT INTO console_saved_views (broker, name, href, description, created_at, created_by, version, updated_at, updated_by)
        VALUES (?, ?, ?, ?, ?, ?, ?, NULL, NULL)`;
      await db.run(
        was
          ? `${insert} ON CONFLICT (broker, name) DO UPDATE SET href = excluded.href, description = excluded.description,
              created_at = excluded.created_at, created_by = excluded.created_by, version = excluded.version,
              updated_at = NULL, updated_by = NULL`
          : insert,
        values,
      );
      return was;
    },
    async edit(broker, e, by) {
      const was = await get(broker, e.name);
      if (!was)
        throw new ConsoleError(
          'NotFound',
          `no team view named "${e.name}" on this broker any more: it was renamed or removed after you opened it; nothing was saved`,
        );
      const stale = (who: string) =>
        new ConsoleError(
          'Conflict',
          `the view "${e.name}" was changed by ${who} after you opened it; nothing was saved: reload it and edit again`,
        );
      if (was.version !== e.version) throw stale(was.updatedBy ?? was.createdBy);
      if (e.newName !== e.name) {
        const other = await get(broker, e.newName);
        if (other) throw clash(e.newName, other.createdBy);
      }
      const after: TeamView = {
        ...was,
        name: e.newName,
        href: e.href,
        description: e.description,
        version: was.version + 1,
        updatedAt: new Date().toISOString(),
        updatedBy: by.slice(0, 500),
      };
      let changed: number;
      try {
        // One conditional write: of two edits from the same version exactly one changes the row.
        changed = await db.run(
          `UPDATE console_saved_views SET name = ?, href = ?, description = ?, version = ?, updated_at = ?, updated_by = ?
           WHERE broker = ? AND name = ? AND COALESCE(version, 1) = ?`,
          [after.name, after.href, after.description, after.version, after.updatedAt, after.updatedBy, broker, e.name, e.version],
        );
      } catch (err) {
        // The new name was taken between the check and the write (the primary key refused it).
        if (/unique|duplicate|constraint/i.test(String(err))) throw clash(e.newName, 'another operator');
        throw err;
      }
      if (changed !== 1) throw stale('another operator');
      return { before: was, after };
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
