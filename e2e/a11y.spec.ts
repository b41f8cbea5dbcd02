import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';

// Every main page, light and dark, checked by axe-core (WCAG 2 A/AA rules) in Chromium:
// no serious or critical violation. axe is evaluated through the DevTools protocol, so the
// page's CSP (no inline scripts) stays on.
const AXE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

// Each test reads its own system (or theme) and nothing another changes: both workers may take them.
test.describe.configure({ mode: 'parallel' });

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

async function violations(page: Page): Promise<Violation[]> {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const w = window as unknown as {
      axe: {
        run: (
          ctx: Document,
          o: object,
        ) => Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: string[] }> }> }>;
      };
    };
    const r = await w.axe.run(document, {
      resultTypes: ['violations'],
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
    }));
  });
}

for (const theme of ['light', 'dark'] as const) {
  test(`the main pages have no serious accessibility violations (${theme})`, async ({ page, request }) => {
    // Ten pages, each with axe over the whole document (the trend tables open): on a loaded
    // 2-core machine that takes longer than one page's default minute.
    test.setTimeout(150_000);
    const task = (
      (await (await request.get('/api/brokers/main/tasks?state=ready&queue=default&limit=1')).json()) as { items: Array<{ id: string }> }
    ).items[0]!;
    const letter = ((await (await request.get('/api/brokers/main/dead?limit=1')).json()) as { items: Array<{ id: string }> }).items[0]!;
    await page.addInitScript((t) => localStorage.setItem('potatoq-console-theme', t), theme);
    const pages = [
      '/',
      '/brokers/main',
      '/brokers/main/queues/default',
      '/brokers/main/dead',
      `/brokers/main/jobs/${encodeURIComponent(task.id)}`,
      `/brokers/main/dead/${encodeURIComponent(letter.id)}`,
      '/brokers/main/enqueue',
      '/brokers/main/workers',
      '/brokers/main/results',
      '/audit',
    ];
    const found: Record<string, Violation[]> = {};
    for (const path of pages) {
      await page.goto(path);
      await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /dark/ : /^(?!.*dark)/);
      await page.waitForLoadState('networkidle');
      // Trend charts: wait for the lazily loaded canvas, and open their tables so axe reads them too.
      const charts = page.locator('figure[data-testid^="trend-"]');
      if (await charts.count()) await expect(charts.first().locator('canvas')).toBeVisible();
      await page.evaluate(() =>
        document.querySelectorAll<HTMLDetailsElement>('details[data-testid="trend-table"]').forEach((d) => (d.open = true)),
      );
      const bad = (await violations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
      if (bad.length) found[path] = bad;
    }
    expect(found).toEqual({});
  });
}
