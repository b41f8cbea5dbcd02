import { expect, test } from '@playwright/test';
import { e2eBrokers } from './brokers';
import { expectNoScriptUrls, guardPage } from './helpers';
import { addRawTask, rows, uniqueQueue } from './seed';

// The seeded broker (lib/demo fixtures) carries hostile payloads: script tags and javascript:
// URLs in arguments, a 1 MB string, a list nested 1,000 deep and a Celery protocol-2 body.
const idWhere = (where: string) => {
  const found = rows<{ id: string }>(e2eBrokers().main, `SELECT id FROM potatoq_jobs WHERE ${where} LIMIT 1`)[0];
  if (!found) throw new Error(`no seeded task where ${where}`);
  return found.id;
};

test('script tags and javascript: URLs in a payload stay text, on the task page and the queue list', async ({ page }) => {
  const id = idWhere("payload LIKE '%<script>alert(1)</script>%'");
  const { pageErrors } = guardPage(page);

  await page.goto(`/brokers/main/jobs/${id}`);
  await expect(page.getByTestId('task-detail')).toBeVisible();
  await expect(page.getByTestId('payload-view')).toContainText('<script>alert(1)</script>');
  await expect(page.getByTestId('payload-view')).toContainText('javascript:alert(1)');
  await expect(page.locator('script:text("alert(1)")')).toHaveCount(0);
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  await expectNoScriptUrls(page);

  await page.goto('/brokers/main/queues/default?q=script');
  await expect(page.getByTestId('task-table')).toBeVisible();
  await expectNoScriptUrls(page);
  await page.waitForTimeout(500); // give any injected handler a chance to fire
  expect(pageErrors).toEqual([]);
});

test('a task with a 1 MB argument opens', async ({ page }) => {
  const id = idWhere('length(payload) > 1000000');
  const { pageErrors } = guardPage(page);
  await page.goto(`/brokers/main/jobs/${id}`);
  await expect(page.getByTestId('detail-id')).toContainText(id);
  await expect(page.getByTestId('payload-view')).toContainText('xxxxxxxxxx');
  expect(pageErrors).toEqual([]);
});

test('a Celery message is flagged as one that crashes potatoq workers, and a 1,000-deep list renders', async ({ page }) => {
  const celery = idWhere("task = 'proj.tasks.add'");
  const deep = idWhere("queue = 'poison' AND task = 'demo.echo'");
  const { pageErrors } = guardPage(page);

  await page.goto(`/brokers/main/jobs/${celery}`);
  const banner = page.getByTestId('foreign-banner');
  await expect(banner).toHaveAttribute('data-kind', 'celery-v2');
  await expect(banner.getByTestId('foreign-reason')).toContainText('This is a Celery (protocol 2) message, not a potatoq one.');
  await expect(banner.getByTestId('foreign-crash-warning')).toBeVisible();

  await page.goto(`/brokers/main/jobs/${deep}`);
  await expect(page.getByTestId('detail-id')).toContainText(deep);
  await expect(page.getByTestId('raw-section')).toBeVisible();
  expect(pageErrors).toEqual([]);
});

test('the task page is served with a nonce CSP, and a hostile audit reason renders as text', async ({ page, request }) => {
  const id = idWhere("payload LIKE '%<script>alert(1)</script>%'");
  const { pageErrors } = guardPage(page);
  const res = await page.goto(`/brokers/main/jobs/${id}`);
  const csp = res!.headers()['content-security-policy'] ?? '';
  expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(csp).toContain("frame-ancestors 'none'");

  // Enqueue is not destructive, so this reason is optional; it is recorded and shown verbatim.
  const reason = `<img src=x onerror=alert(3)><a href="javascript:alert(4)">x</a>`;
  const queue = `hostile-audit-${Date.now()}`;
  const r = await request.post('/api/brokers/main/enqueue', { data: { task: 'demo.echo', queue, reason } });
  expect(r.status()).toBe(200);
  await page.goto(`/audit?broker=main&queue=${queue}`);
  await expect(page.getByTestId('audit-reason')).toHaveText(reason);
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  await expectNoScriptUrls(page);
  await page.waitForTimeout(500);
  expect(pageErrors).toEqual([]);
});

test('a 10 MB payload and one that is not JSON: short previews in the list, the detail opens with the raw text cut', async ({ page }) => {
  const { main } = e2eBrokers();
  const queue = uniqueQueue('huge');
  const big = `{"task":"demo.echo","args":["${'<b>x</b>'.repeat(1_310_720)}"],"id":"big","queue":"${queue}","enqueued_at":1796000000.5,"v":1}`;
  expect(big.length).toBeGreaterThan(10_000_000);
  const huge = addRawTask(main, { queue, task: 'demo.echo', payload: big });
  const broken = addRawTask(main, { queue, task: 'demo.echo', payload: '{"task": "demo.echo", "args": [1, <script>alert(1)</script>' });
  const { pageErrors } = guardPage(page);

  await page.goto(`/brokers/main/queues/${queue}`);
  const row = (id: string) => page.locator(`[data-testid="task-row"][data-id="${id}"]`);
  await expect(row(huge)).toBeVisible();
  expect(((await row(huge).textContent()) ?? '').length).toBeLessThan(600);
  await expect(row(broken)).toContainText('foreign: invalid-json');

  await page.goto(`/brokers/main/jobs/${huge}`);
  await expect(page.getByTestId('detail-id')).toContainText(huge);
  await expect(page.getByTestId('raw-json-truncated')).toContainText('bytes (10.0 MiB)');
  await expect(page.locator('b:text("x")')).toHaveCount(0); // the <b> tags are text

  await page.goto(`/brokers/main/jobs/${broken}`);
  const banner = page.getByTestId('foreign-banner');
  await expect(banner).toHaveAttribute('data-kind', 'invalid-json');
  await expect(page.getByTestId('raw-json')).toContainText('<script>alert(1)</script>');
  await expect(page.locator('script:text("alert(1)")')).toHaveCount(0);
  expect(pageErrors).toEqual([]);
});
