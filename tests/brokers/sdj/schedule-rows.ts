// Test support: scheduled_fires rows written the way Simple Durable Jobs v4.5.1's GormStorage
// writes them (docs/systems/simple-durable-jobs.md, "Schedules"). The real Go scheduler cannot run
// here (the module proxy refuses the library), so these are its two statements, as GORM sends them:
// `Create(...)` with `OnConflict{DoNothing: true}` (PostgreSQL `ON CONFLICT DO NOTHING`, MySQL
// `ON DUPLICATE KEY UPDATE name = name`), then the claim's guarded UPDATE.
import type { TestDb } from '@/tests/sdj/databases';
import { q } from './rows';

const insertIfAbsent = (db: TestDb) =>
  db.dialect === 'postgres'
    ? 'INSERT INTO scheduled_fires (name, last_fire_at, last_fired_at) VALUES (?, ?, NULL) ON CONFLICT DO NOTHING'
    : 'INSERT INTO scheduled_fires (name, last_fire_at, last_fired_at) VALUES (?, ?, NULL) ON DUPLICATE KEY UPDATE name = name';

/** A timestamp as the driver binds it (MySQL DATETIME(3) in the UTC session: no zone suffix). */
const at = (db: TestDb, d: Date) => (db.dialect === 'postgres' ? d.toISOString() : d.toISOString().replace('T', ' ').replace('Z', ''));

/** `SeedScheduledFire(name, now)`: a worker's first sight of a schedule with no row anchors it;
 *  `last_fired_at` stays NULL (it records real firings only). */
export async function seedScheduledFire(db: TestDb, name: string, anchor: Date): Promise<void> {
  await q(db, insertIfAbsent(db), [name, at(db, anchor)]);
}

/** `ClaimScheduledFireTx(name, boundary)`: insert-if-absent at the epoch, then advance both columns
 *  to the boundary only if it is later than the cursor. */
export async function claimScheduledFire(db: TestDb, name: string, boundary: Date): Promise<void> {
  await q(db, insertIfAbsent(db), [name, at(db, new Date(0))]);
  await q(db, 'UPDATE scheduled_fires SET last_fire_at = ?, last_fired_at = ? WHERE name = ? AND last_fire_at < ?', [
    at(db, boundary),
    at(db, boundary),
    name,
    at(db, boundary),
  ]);
}
