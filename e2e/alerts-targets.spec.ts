import { expect, test } from '@playwright/test';
import { startWebhookReceiver } from '../tests/support/webhook-receiver';
import { guardPage } from './helpers';
import { uniqueQueue } from './seed';

// The alerts page on the production build: a target added through the typed form (its field
// error first), listed, in the rules Prometheus loads, removed through the confirmation; the
// webhook saved, tested against a real HTTP receiver, and its address and secret never shown
// back, on the page or by the API.

test('adds a target in the form, lists it, and never shows the webhook address or secret back', async ({ page }) => {
  const { pageErrors } = guardPage(page);
  const stamp = Date.now().toString(36);
  const hook = await startWebhookReceiver(`/hooks/${stamp}/private-path-${stamp}`);
  const secret = `e2e-signing-secret-${stamp}`;
  const id = `e2e-${stamp}`;
  const queue = uniqueQueue('alerts');
  try {
    await page.goto('/alerts');
    await page.getByTestId('alert-add').click();
    await page.getByTestId('alert-id').fill(id);
    await page.getByTestId('alert-broker').selectOption('main');
    await page.getByTestId('alert-queue').fill(queue);
    await page.getByTestId('alert-kind').selectOption('deadPerMinute');
    await page.getByTestId('alert-save').click();
    await expect(page.getByTestId('alert-error-threshold')).toContainText('threshold is required for deadPerMinute');
    await page.getByTestId('alert-threshold').fill('2');
    await page.getByTestId('alert-save').click();
    const row = page.getByTestId(`alert-row-${id}`);
    await expect(row).toContainText(`main / ${queue}`);
    await expect(row).toContainText('deadPerMinute > 2 for 5m');
    await expect(page.getByTestId(`alert-origin-${id}`)).toContainText('edited in the console by anonymous');
    await expect(row.getByRole('link', { name: `main / ${queue}` })).toHaveAttribute('href', `/brokers/main/dead?queue=${queue}`);

    // The same id again: the server's refusal lands under the field.
    await page.getByTestId('alert-add').click();
    await page.getByTestId('alert-id').fill(id);
    await page.getByTestId('alert-kind').selectOption('stuck');
    await page.getByTestId('alert-save').click();
    await expect(page.getByTestId('alert-error-id')).toContainText('a target with this id exists');
    await page.getByTestId('alert-cancel').click();
    expect(await (await page.request.get('/api/alerts/rules')).text()).toContain(`alert: PotatoqTarget_${id.replace(/-/g, '_')}`);

    // A target on the broker itself: a queue is refused under its field; without one it is listed
    // by the broker's name alone and links to the broker's page.
    await page.getByTestId('alert-add').click();
    await page.getByTestId('alert-id').fill(`${id}-down`);
    await page.getByTestId('alert-broker').selectOption('main');
    await page.getByTestId('alert-kind').selectOption('unreachable');
    await page.getByTestId('alert-queue').fill(queue);
    await page.getByTestId('alert-save').click();
    await expect(page.getByTestId('alert-error-queue')).toContainText('unreachable watches the whole broker and takes no queue');
    await page.getByTestId('alert-queue').fill('');
    await page.getByTestId('alert-save').click();
    const down = page.getByTestId(`alert-row-${id}-down`);
    await expect(down).toContainText('unreachable for 5m');
    await expect(down.getByRole('link', { name: 'main', exact: true })).toHaveAttribute('href', '/brokers/main');

    await page.getByTestId('alert-webhook-url').fill(hook.url);
    await page.getByTestId('alert-webhook-secret').fill(secret);
    await page.getByTestId('alert-webhook-save').click();
    await expect(page.getByTestId('alert-webhook-status')).toContainText('set in the console, with a signing secret');
    await expect(page.getByTestId('alert-webhook-url')).toHaveValue('');
    await page.getByTestId('alert-webhook-test').click();
    await expect(page.getByTestId('alert-webhook-note')).toContainText('the receiver answered HTTP 200');
    const [got] = await hook.waitFor(1);
    expect(got!.body).toMatchObject({ event: 'test' });

    await page.reload();
    await expect(page.getByTestId('alert-webhook-status')).toContainText('with a signing secret');
    for (const text of [await page.content(), await (await page.request.get('/api/alerts/targets')).text()]) {
      expect(text).not.toContain(`private-path-${stamp}`);
      expect(text).not.toContain(secret);
    }

    await page.getByTestId(`alert-remove-${id}`).click();
    await page.getByTestId('alert-remove-dialog').getByTestId('confirm-submit').click();
    await expect(page.getByTestId('alert-remove-dialog')).toContainText('no longer watched');
    await page.getByTestId('confirm-cancel').click();
    await expect(row).toHaveCount(0);
    expect(pageErrors).toEqual([]);
  } finally {
    await page.request.post('/api/alerts/webhook/remove', { data: {} });
    for (const x of [id, `${id}-down`]) await page.request.post('/api/alerts/targets/remove', { data: { id: x } });
    await hook.close();
  }
});
