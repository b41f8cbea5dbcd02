import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { requireService } from './brokers-extra';
import { e2eBrokers } from './brokers';
import { guardPage } from './helpers';
import { sdjBrokers, sdjDb, sdjStatus } from './sdj-dbs';
import { deadLetter, fanOut, goEnqueue, idOf, q } from '../tests/brokers/sdj/rows';
import type { TestDb } from '../tests/sdj/databases';

// Simple Durable Jobs' fan-out tree in the family panel, and the library's delete of a workflow
// with its subtree offered there: the dialog says what goes and what the library refuses, takes
// the id typed again and a reason; checked in the database.

const dir = () => e2eBrokers().dir;

for (const b of sdjBrokers(process.env.POTATOQ_E2E_DIR ?? '')) {
  test.describe(`SDJ family on ${b.label}`, () => {
    let db: TestDb;
    test.beforeAll(() => {
      db = sdjDb(dir(), b.id);
    });
    test.afterAll(async () => {
      await db?.close();
    });

    test('a sub-job shows its fan-out and the parent it holds back; the workflow is deleted with its subtree', async ({ page }) => {
      test.skip(!requireService(sdjStatus(dir(), b.id), `SDJ on ${b.label}`), `SDJ on ${b.label}: ${sdjStatus(dir(), b.id)}`);
      const queue = `e2esdjfam${randomBytes(3).toString('hex')}`;
      const parent = await goEnqueue(db, { queue, type: 'fan-out' });
      const { children } = await fanOut(db, parent, 3, queue);
      await deadLetter(db, children[1]!, 'boom');
      const { pageErrors } = guardPage(page);

      await page.goto(`/brokers/${b.id}/dead/${children[1]}`);
      const panel = page.getByTestId('family-panel');
      await expect(panel.getByTestId('family-group')).toHaveAttribute('data-kind', 'fan-out');
      await expect(panel.getByTestId('family-block').locator(`[data-testid="family-member"][data-id="${parent}"]`)).toBeVisible();

      await page.goto(`/brokers/${b.id}/jobs/${parent}`);
      await expect(page.getByTestId('family-children').getByTestId('family-member')).toHaveCount(3);
      // A sub-job is pending, not running: cancel the workflow so the library's guard lets it go.
      await q(db, "UPDATE jobs SET status = 'cancelled' WHERE id = ?", [idOf(db, parent)]);
      await page.getByTestId('action-delete-family').click();
      const dialog = page.getByTestId('delete-family-dialog');
      await expect(dialog).toContainText('DeleteWorkflowSubtree');
      await dialog.getByTestId('delete-family-confirm').fill('not the id');
      await dialog.getByTestId('confirm-reason').fill('e2e: cleaning up a cancelled workflow');
      await expect(dialog.getByTestId('confirm-submit')).toBeDisabled();
      await dialog.getByTestId('delete-family-confirm').fill(parent);
      await dialog.getByTestId('confirm-submit').click();
      await expect(dialog.getByTestId('outcome-succeeded')).toBeVisible();
      // In the database: the workflow, its three sub-jobs and its fan-out are gone.
      expect(await q(db, 'SELECT id FROM jobs WHERE queue = ?', [queue])).toEqual([]);
      expect(await q(db, 'SELECT id FROM fan_outs WHERE parent_job_id = ?', [idOf(db, parent)])).toEqual([]);
      expect(pageErrors).toEqual([]);
    });
  });
}
