import { expect, type Page } from '@playwright/test';

/**
 * Fails the test if the page ever opens a JS dialog (an `alert(1)` from a payload would) and
 * collects uncaught page errors. Call before the first navigation.
 */
export function guardPage(page: Page): { pageErrors: string[] } {
  const pageErrors: string[] = [];
  page.on('dialog', async (dialog) => {
    pageErrors.push(`dialog opened: ${dialog.type()} ${dialog.message()}`);
    await dialog.dismiss();
  });
  page.on('pageerror', (e) => pageErrors.push(`page error: ${e.message}`));
  return { pageErrors };
}

/** No link or form on the page may carry a `javascript:` URL. */
export async function expectNoScriptUrls(page: Page): Promise<void> {
  const urls = await page.evaluate(() =>
    [...document.querySelectorAll('[href],[src],[action],[formaction]')]
      .flatMap((el) => ['href', 'src', 'action', 'formaction'].map((a) => el.getAttribute(a) ?? ''))
      .filter((v) => /^\s*javascript:/i.test(v)),
  );
  expect(urls).toEqual([]);
}

/** The broker card of `brokerId` on the overview, once it has answered (ok or error). While the
 *  overview streams, React can hold the pending card and its replacement in the page together
 *  for a moment; the pending one (`data-state="loading"`) is left out so the locator never
 *  matches two. */
export const brokerCard = (page: Page, brokerId: string) => page.locator(`[data-broker="${brokerId}"]:not([data-state="loading"])`);
