import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { e2eBrokers } from './brokers';
import { guardPage } from './helpers';
import { deadRow, uniqueQueue } from './seed';
import { PYTHON, ROOT } from '../tests/support/potatoq-seeder';
import { SoloWorker, until } from '../tests/support/solo-worker';

// A replay followed as a campaign, with the real potatoq worker on the e2e SQLite broker: four
// letters replayed after a fix, the roll-up updating live as the worker runs them (half succeed,
// one dies of the same error, one of a new one), then "replay the ones that died again" as a
// linked campaign.
test('a replay becomes a campaign whose roll-up follows the worker, and the dead again are replayed as a linked one', async ({ page }) => {
  test.setTimeout(120_000);
  const { main } = e2eBrokers();
  const queue = uniqueQueue('campaign');
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'campaign-e2e-'));
  const PY = path.join(ROOT, 'tests/py');
  const env = { ...process.env, CP_BROKER: `sqlite:///${main}`, CP_OUT: out, PYTHONUNBUFFERED: '1' };
  const ids = execFileSync(PYTHON, ['cp_tasks.py', 'produce', queue, '4'], { cwd: PY, env }).toString().trim().split(' ');
  const worker = new SoloWorker('cp_tasks', PY, env);
  const { pageErrors } = guardPage(page);
  try {
    worker.start([queue]);
    await until(
      'four dead letters',
      () => ids.every((id) => deadRow(main, id)),
      60_000,
      () => worker.log,
    );
    await worker.stop();
    fs.writeFileSync(path.join(out, 'fixed'), '');

    await page.goto(`/brokers/main/queues/${queue}?state=dead`);
    await page.getByTestId('select-all').check();
    await page.getByTestId('action-replay').click();
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.getByTestId('confirm-submit').click();
    await expect(dialog.getByTestId('outcome-succeeded')).toContainText('4 of 4');
    expect(ids.filter((id) => deadRow(main, id))).toEqual([]);
    await dialog.getByTestId('outcome-campaign').click();

    await expect(page.getByTestId('campaign-line')).toHaveText('4 waiting');
    worker.start([queue]);
    await expect(page.getByTestId('campaign-line')).toHaveText('2 succeeded · 1 died again, same error · 1 died again, new error', {
      timeout: 60_000,
    });
    await expect(page.getByTestId('campaign-follow')).toHaveText(/settled/);
    await page.getByTestId('campaign-fate-dead-new').click();
    await expect(page.getByTestId('campaign-item')).toHaveCount(1);
    await expect(page.getByTestId('campaign-item')).toContainText(ids[3]!);
    await expect(page.getByTestId('campaign-item')).toContainText('KeyError');

    await page.getByTestId('replay-again-open').click();
    await page.getByTestId('confirm-reason').fill('e2e: retry the ones that died again');
    await page.getByTestId('replay-again-confirm').click();
    await expect(page.getByTestId('replay-again-result')).toContainText('Replayed 2 of 2');
    await page.getByTestId('replay-again-campaign').click();
    await expect(page.getByTestId('campaign-parent')).toBeVisible();
    // The worker still runs: both die again, each of the error it died of just before.
    await expect(page.getByTestId('campaign-line')).toHaveText('2 died again, same error', { timeout: 60_000 });
    expect([ids[1], ids[3]].every((id) => deadRow(main, id!))).toBe(true);

    await page.goto(`/brokers/main/dead/${ids[1]}`);
    await page.getByTestId('detail-campaigns').click();
    await expect(page.getByTestId('campaign-row')).toHaveCount(2);
    expect(pageErrors).toEqual([]);
  } finally {
    await worker.stop();
    fs.rmSync(out, { recursive: true, force: true });
  }
});
