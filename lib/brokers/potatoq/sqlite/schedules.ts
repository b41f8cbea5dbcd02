import 'server-only';
import type Database from 'better-sqlite3';
import type { ScheduleList } from '@/lib/brokers/schedule';
import { FIRES_PER_ENTRY, foldFires, periodicSchedules } from '../schedules';

/** Entries read at most (distinct names in potatoq_periodic). */
const MAX_ROWS = 4000;

/** potatoq's periodic claims on SQLite: the newest fire times of each entry. */
export function listPeriodic(db: Database.Database): ScheduleList {
  const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'potatoq_periodic'").get();
  if (!exists)
    return periodicSchedules([], {
      history: true,
      notes: ['this database has no potatoq_periodic table (a potatoq before 26.1a8, or no worker has run here yet)'],
    });
  const rows = db
    .prepare(
      `SELECT name, fire_at FROM (
         SELECT name, fire_at, row_number() OVER (PARTITION BY name ORDER BY fire_at DESC) AS rn FROM potatoq_periodic
       ) WHERE rn <= ? ORDER BY name, fire_at DESC LIMIT ?`,
    )
    .all(FIRES_PER_ENTRY, MAX_ROWS + 1) as Array<{ name: string; fire_at: number }>;
  const capped = rows.length > MAX_ROWS;
  const list = periodicSchedules(foldFires(rows.slice(0, MAX_ROWS)), {
    history: true,
    notes: capped ? [`only the first ${MAX_ROWS} claim rows (by entry name) were read`] : [],
  });
  return { ...list, capped };
}
