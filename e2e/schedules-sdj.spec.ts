import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { requireService } from './brokers-extra';
import { e2eBrokers } from './brokers';
import { guardPage } from './helpers';
import { sdjBrokers, sdjDb, sdjStatus } from './sdj-dbs';
import { q } from '../tests/brokers/sdj/rows';
import { claimScheduledFire, seedScheduledFire } from '../tests/brokers/sdj/schedule-rows';
import type { TestDb } from '../tests/sdj/databases';

// Simple Durable Jobs' schedules on the Schedules tab, on PostgreSQL 15 and MySQL 9
// (e2e/sdj-dbs.ts): scheduled_fires rows written as v4.5.1's scheduler writes them
// (tests/brokers/sdj/schedule-rows.ts; the Go scheduler cannot run here). The tab is read only
// and says why; each row shows its last firing (the boundary it was due at) and no next one.

const dir = () => e2eBrokers().dir;
const row = (page: Page, name: string) => page.locator(`[data-testid="schedule-row"][data-schedule="${name}"]`);
/** The instant a row's last-firing `<time>` names (the database's own text, compared as time). */
const lastAt = async (page: Page, name: string) => Date.parse((await row(page, name).locator('time').getAttribute('datetime')) ?? '');

for (const b of sdjBrokers(process.env.POTATOQ_E2E_DIR ?? '')) {
  test.describe(`SDJ schedules on ${b.label}`, () => {
    let db: TestDb;
    test.beforeAll(() => {
      db = sdjDb(dir(), b.id);
    });
    test.afterAll(async () => {
      await db?.close();
    });

    test('each name with its last firing, newest first, none never fired, read only with the reason', async ({ page }) => {
      test.skip(!requireService(sdjStatus(dir(), b.id), `SDJ on ${b.label}`), `SDJ on ${b.label}: ${sdjStatus(dir(), b.id)}`);
      const tag = randomBytes(3).toString('hex');
      const [nightly, every, fresh] = [`e2e-nightly-${tag}`, `e2e-every-30m-${tag}`, `e2e-fresh-${tag}`];
      const base = Date.now() - 6 * 3_600_000;
      const b1 = new Date(base);
      const b2 = new Date(base + 3_600_000 + 250);
      await claimScheduledFire(db, nightly, b1);
      await claimScheduledFire(db, every, new Date(base + 1_800_000));
      await claimScheduledFire(db, every, b2);
      // A peer's claim of an earlier boundary loses: the row keeps the later one.
      await claimScheduledFire(db, every, new Date(base + 1_800_000));
      await seedScheduledFire(db, fresh, new Date(base - 60_000));
      const { pageErrors } = guardPage(page);

      await page.goto(`/brokers/${b.id}`);
      await expect(page.getByTestId('broker-capabilities')).toContainText('the console can only read the schedules of this system');
      await page.getByTestId('nav-schedules').click();
      await expect(row(page, every)).toBeVisible();

      const order = await page.getByTestId('schedule-row').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-schedule')));
      const ours = order.filter((n) => n === nightly || n === every || n === fresh);
      expect(ours).toEqual([every, nightly, fresh]);

      await expect(row(page, every).getByTestId('schedule-words')).toHaveText(
        "the schedule is in the Go application's code; only its last firing is recorded here",
      );
      expect(await lastAt(page, every)).toBe(b2.getTime());
      expect(await lastAt(page, nightly)).toBe(b1.getTime());
      await expect(row(page, every)).toContainText('no job id is recorded with a firing');
      // No next firing: the expression is in the code. No cron, no time zone, no problem flagged.
      for (const n of [every, nightly, fresh]) {
        await expect(row(page, n).locator('td').nth(2)).toHaveText('—');
        await expect(row(page, n).getByTestId('schedule-cron')).toHaveCount(0);
        await expect(row(page, n).locator('[data-testid^="schedule-problem-"]')).toHaveCount(0);
      }
      await expect(row(page, fresh).locator('td').nth(3)).toHaveText('never');
      await expect(row(page, fresh).getByTestId('schedule-words')).toContainText('no firing recorded: a worker registered it at');

      // Read only: no action, no create, and the reason in the library's terms.
      for (const a of ['run-now', 'pause', 'resume', 'delete', 'edit', 'create'])
        await expect(page.getByTestId(`schedule-${a}`)).toHaveCount(0);
      const cannot = page.getByTestId('schedules-cannot-see');
      await expect(cannot).toContainText("registered in the Go application's code (Schedule or ScheduleE)");
      await expect(cannot).toContainText('Pause, edit, delete or run now: the library has none of these for schedules');
      await page.screenshot({ path: `test-results/schedules-sdj-${b.dialect}.png`, fullPage: true });

      // The API refuses a write the system does not have, and nothing changes.
      const before = await q(db, 'SELECT last_fire_at, last_fired_at FROM scheduled_fires WHERE name = ?', [every]);
      const r = await page.request.post(`/api/brokers/${b.id}/schedules/${encodeURIComponent(every)}/pause`, {
        data: { confirm: every },
      });
      expect(r.status()).toBe(501);
      expect(await r.text()).toContain('the console can only read the schedules of this system');
      expect(await q(db, 'SELECT last_fire_at, last_fired_at FROM scheduled_fires WHERE name = ?', [every])).toEqual(before);
      expect(pageErrors).toEqual([]);
    });
  });
}
