import { expect, test, type Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { e2eBrokers } from './brokers';
import { guardPage } from './helpers';
import { addDead, addTask, uniqueQueue } from './seed';

// Bidi controls, zero-width characters and C1 controls in what a broker or a payload says (task
// and queue names, exception messages, worker host names, audit reasons) are shown as visible
// ⟨U+…⟩ markers on every page, in the text and in every attribute a reader can meet (title,
// aria-label, alt, placeholder, the value of a read-only input). Left out of the check:
// `data-*` attributes (test hooks and ids for actions, never shown), `href` (percent-encoded)
// and the `value` of editable or hidden inputs and of options (what the form sends back).
const HIDDEN = '\u202E\u200B\u2066\u0085';

async function rawHiddenChars(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const re = /[\u202E\u200B\u2066\u0080-\u009F]/;
    const found: string[] = [];
    for (const line of document.body.innerText.split('\n').filter((l) => re.test(l)))
      found.push(`text: ${JSON.stringify(line.slice(0, 120))}`);
    for (const el of document.querySelectorAll('*')) {
      for (const a of el.attributes) {
        if (a.name.startsWith('data-') || a.name === 'href') continue;
        if (a.name === 'value' && !(el instanceof HTMLInputElement && el.readOnly && el.type !== 'hidden')) continue;
        if (re.test(a.value)) found.push(`<${el.tagName.toLowerCase()} ${a.name}=${JSON.stringify(a.value.slice(0, 120))}>`);
      }
    }
    return found;
  });
}

function addLostWorkerTask(file: string, queue: string, task: string, worker: string): string {
  const id = addTask(file, { queue, task });
  const db = new Database(file, { timeout: 10_000 });
  try {
    const old = Date.now() / 1000 - 20 * 60;
    db.transaction(() => {
      db.prepare('UPDATE potatoq_jobs SET state = 2, worker = ?, pid = 7, claimed_at = ?, deliveries = 1 WHERE id = ?').run(
        worker,
        old,
        id,
      );
      const info = JSON.stringify({ hostname: worker.split(':')[0], pid: 7, queues: [queue], concurrency: 1, running: [id] });
      db.prepare('INSERT INTO potatoq_workers (id, heartbeat, info) VALUES (?, ?, ?)').run(worker, old, info);
    }).immediate();
  } finally {
    db.close();
  }
  return id;
}

test('hidden characters from a broker are never shown raw, in text or in attributes', async ({ page, request }) => {
  test.setTimeout(180_000);
  const { main } = e2eBrokers();
  const plain = uniqueQueue('hid');
  const queue = `${plain}${HIDDEN}q`;
  const task = `demo.hid${HIDDEN}den`;
  const ready = addTask(main, { queue, task });
  const running = addLostWorkerTask(main, queue, task, `potatoq@ho${HIDDEN}st-${plain}:7:solo`);
  const dead = addDead(main, { queue, task, reason: `Traceback (most recent call last):\nValueError: bad ${HIDDEN} input ${plain}` });
  const r = await request.post('/api/brokers/main/enqueue', { data: { task, queue, reason: `because ${HIDDEN} ${plain}` } });
  expect(r.status()).toBe(200);
  const { pageErrors } = guardPage(page);

  const q = encodeURIComponent(queue);
  const pages: Array<[string, string]> = [
    ['/', plain],
    ['/brokers/main', plain],
    [`/brokers/main/queues/${q}`, ready],
    [`/brokers/main/queues/${q}?state=running`, running],
    [`/brokers/main/jobs/${ready}`, ready],
    [`/brokers/main/jobs/${running}`, running],
    [`/brokers/main/jobs/${dead}`, 'bad'],
    [`/brokers/main/dead?queue=${q}`, dead],
    [`/brokers/main/dead`, plain],
    [`/brokers/main/dead/${dead}`, 'bad'],
    ['/brokers/main/workers', plain],
    ['/brokers/main/results', 'demo.hid'],
    [`/find?id=${dead}`, 'demo.hid'],
    [`/audit?broker=main&queue=${q}`, plain],
  ];
  const failures: string[] = [];
  for (const [path, shows] of pages) {
    await page.goto(path);
    await expect(page.locator('body'), path).toContainText(shows, { timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    failures.push(...(await rawHiddenChars(page)).map((f) => `${path}: ${f}`));
  }
  expect(failures).toEqual([]);
  expect(pageErrors).toEqual([]);
});
