// SDJ's schedules on the Schedules tab, on PostgreSQL 15 and MySQL 9: scheduled_fires rows written
// as v4.5.1's scheduler writes them (schedule-rows.ts; the real Go scheduler cannot run here, the
// module proxy refuses the library), read back through the adapter. Read only, on any ledger.
import { afterEach, describe, expect, it } from 'vitest';
import { createSdjAdapter } from '@/lib/brokers/sdj/adapter';
import { scheduleCaps } from '@/lib/brokers/schedule-model';
import { ZScheduleList } from '@/lib/brokers/schedule';
import { adapterContext } from '@/lib/brokers/systems-context';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { createTestDb, type Dialect, type TestDb } from '@/tests/sdj/databases';
import { q } from './rows';
import { claimScheduledFire, seedScheduledFire } from './schedule-rows';
import { createSdjSchema, type LedgerState } from './schema-fixture';
import { availableDialects, DIALECTS, guarded } from './support';

const up = await availableDialects();
const ms = (iso: string | null | undefined) => (iso ? Date.parse(iso) : null);

for (const dialect of DIALECTS) {
  describe.skipIf(!up[dialect])(`SDJ schedules on ${dialect}`, () => {
    let db: TestDb | undefined;
    let a: BrokerAdapter | undefined;
    afterEach(async () => {
      await a?.close();
      await db?.drop();
      a = db = undefined;
    });
    async function open(ledger: LedgerState = 'verified'): Promise<{ db: TestDb; a: BrokerAdapter }> {
      db = guarded(await createTestDb(dialect as Dialect));
      await createSdjSchema(db, ledger);
      a = createSdjAdapter({ id: 'sdj', name: 'SDJ', url: db.url, readOnly: false, options: { lockWaitMs: 500 } }, adapterContext());
      return { db, a };
    }

    it("lists each name's last firing, newest first, and a seeded schedule as never fired", async () => {
      const { db, a } = await open();
      const empty = await a.listSchedules!();
      expect(empty.schedules).toEqual([]);
      expect(empty.notes).toEqual([expect.stringMatching(/scheduled_fires is empty/)]);

      const b1 = new Date('2026-12-04T03:00:00.000Z');
      const b2 = new Date('2026-12-04T09:30:00.250Z');
      await claimScheduledFire(db, 'nightly', b1);
      await claimScheduledFire(db, 'every-30m', new Date('2026-12-04T09:00:00.000Z'));
      await claimScheduledFire(db, 'every-30m', b2);
      // A peer's claim of an earlier boundary loses: the row keeps the later one.
      await claimScheduledFire(db, 'every-30m', new Date('2026-12-04T09:00:00.000Z'));
      await seedScheduledFire(db, 'fresh', new Date('2026-12-04T11:00:00.500Z'));
      // A second worker's seed changes nothing (insert-if-absent).
      await seedScheduledFire(db, 'fresh', new Date('2026-12-04T11:00:05.000Z'));

      const list = await a.listSchedules!();
      expect(ZScheduleList.parse(list)).toEqual(list);
      expect(list).toMatchObject({ capped: false, notes: [] });
      expect(list.schedules.map((s) => [s.name, ms(s.last?.at)])).toEqual([
        ['every-30m', b2.getTime()],
        ['nightly', b1.getTime()],
        ['fresh', null],
      ]);
      const [every] = list.schedules;
      expect(every).toMatchObject({ task: null, cron: null, timeZone: null, nextAt: null, paused: null, payload: null, problems: [] });
      expect(every!.last).toMatchObject({ jobId: null, state: null, link: null });
      expect(ms(every!.last!.dueAt)).toBe(b2.getTime());
      // The database's own text (PostgreSQL drops a zero fraction, MySQL keeps three digits).
      expect(list.schedules[2]!.words).toMatch(/registered it at 2026-12-04T11:00:00\.5(00)?Z/);
    });

    it('reads one schedule by its exact name, and none for another', async () => {
      const { db, a } = await open();
      await claimScheduledFire(db, 'Nightly', new Date('2026-12-04T03:00:00.000Z'));
      expect(ms((await a.getSchedule!('Nightly'))?.last?.at)).toBe(Date.parse('2026-12-04T03:00:00Z'));
      // MySQL's `name` is utf8mb4_0900_as_cs: no case-insensitive match, as on PostgreSQL.
      expect(await a.getSchedule!('nightly')).toBeNull();
      expect(await a.getSchedule!('x'.repeat(256))).toBeNull();
    });

    it('keeps reading on a schema it was not verified against, and offers no schedule action', async () => {
      const { db, a } = await open('newer');
      await claimScheduledFire(db, 'nightly', new Date('2026-12-04T03:00:00.000Z'));
      const caps = { ...scheduleCaps(a.model), ...(await a.capabilities()) };
      expect(caps.replay.on).toBe(false);
      expect(caps.schedules?.on).toBe(true);
      expect(caps['schedules:write']?.on).toBe(false);
      expect((await a.listSchedules!()).schedules.map((s) => s.name)).toEqual(['nightly']);
      expect(a.scheduleAction).toBeUndefined();
      expect(a.createSchedule).toBeUndefined();
    });

    it('stops at 500 names and says so; no table is a note, not an error', async () => {
      const { db, a } = await open();
      const names = Array.from({ length: 501 }, (_, i) => `s-${String(i).padStart(3, '0')}`);
      await q(
        db,
        `INSERT INTO scheduled_fires (name, last_fire_at, last_fired_at) VALUES ${names.map(() => '(?, NULL, NULL)').join(', ')}`,
        names,
      );
      const capped = await a.listSchedules!();
      expect(capped.capped).toBe(true);
      expect(capped.schedules).toHaveLength(500);
      expect(capped.schedules.some((s) => s.name === 's-500')).toBe(false);
      expect(capped.notes).toEqual([expect.stringMatching(/only the first 500 schedule names/)]);
      await q(db, 'DROP TABLE scheduled_fires');
      const none = await a.listSchedules!();
      expect(none.schedules).toEqual([]);
      expect(none.notes).toEqual([expect.stringMatching(/no scheduled_fires table/)]);
      expect(await a.getSchedule!('s-000')).toBeNull();
    });
  });
}
