import 'server-only';
import { grantChecks, mysqlPrivileges, neededPairs, pgPrivileges, type GrantNeeds } from '@/lib/brokers/kit/grants';
import type { AccessCheck } from '@/lib/brokers/types';
import type { SdjDb } from './db';

/**
 * The tables Simple Durable Jobs' console statements touch (the library names them literally),
 * and which capability each privilege serves. The ledger and jobs are read by every page.
 */
export const SDJ_GRANT_NEEDS: GrantNeeds = {
  required: [
    ['schema_migrations', 'SELECT'],
    ['jobs', 'SELECT'],
  ],
  uses: {
    family: [['fan_outs', 'SELECT']],
    schedules: [['scheduled_fires', 'SELECT']],
    replay: [
      ['jobs', 'UPDATE'],
      ['checkpoints', 'DELETE'],
    ],
    discard: [
      ['jobs', 'DELETE'],
      ['checkpoints', 'DELETE'],
      ['signals', 'DELETE'],
      ['fan_outs', 'SELECT'],
    ],
    revoke: [
      ['jobs', 'UPDATE'],
      ['fan_outs', 'UPDATE'],
      ['concurrency_slots', 'DELETE'],
    ],
    purge: [
      ['jobs', 'DELETE'],
      ['checkpoints', 'DELETE'],
      ['signals', 'DELETE'],
      ['unique_locks', 'DELETE'],
    ],
    enqueue: [['jobs', 'INSERT']],
    pause: [
      ['queue_states', 'SELECT'],
      ['queue_states', 'INSERT'],
      ['queue_states', 'UPDATE'],
    ],
  },
};

/** The doctor's rows: the login's privileges on each SDJ table, from the database's own answer. */
export async function checkSdjAccess(db: SdjDb): Promise<AccessCheck[]> {
  const q = (sql: string, params: unknown[]) => db.all(sql, params);
  const { who, has } = db.dialect === 'postgres' ? await pgPrivileges(q, neededPairs(SDJ_GRANT_NEEDS), false) : await mysqlPrivileges(q);
  return grantChecks(db.dialect === 'postgres' ? 'PostgreSQL' : 'MySQL', who, SDJ_GRANT_NEEDS, has);
}
