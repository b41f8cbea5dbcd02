import 'server-only';
import type { ScheduleList } from '@/lib/brokers/schedule';
import { FIRES_PER_ENTRY, foldFires, periodicSchedules } from '../schedules';
import type { PgNames } from './names';
import type { Sql } from './pool';

const MAX_ROWS = 4000;

/** potatoq's periodic claims on PostgreSQL (`<prefix>periodic`): the newest fire times of each entry. */
export async function listPeriodic(sql: Sql, n: PgNames): Promise<ScheduleList> {
  const [found] = await sql<{ t: string | null }>('SELECT to_regclass($1)::text AS t', [n.periodic]);
  if (!found?.t)
    return periodicSchedules([], {
      history: true,
      notes: [`there is no periodic table in ${n.where} (a potatoq before 26.1a8, or no worker has run here yet)`],
    });
  const rows = await sql<{ name: string; fire_at: number }>(
    `SELECT name, fire_at FROM (
       SELECT name, fire_at, row_number() OVER (PARTITION BY name ORDER BY fire_at DESC) AS rn FROM ${n.periodic}
     ) p WHERE rn <= $1 ORDER BY name, fire_at DESC LIMIT $2`,
    [FIRES_PER_ENTRY, MAX_ROWS + 1],
  );
  const capped = rows.length > MAX_ROWS;
  const list = periodicSchedules(foldFires(rows.slice(0, MAX_ROWS)), {
    history: true,
    notes: capped ? [`only the first ${MAX_ROWS} claim rows (by entry name) were read`] : [],
  });
  return { ...list, capped };
}
