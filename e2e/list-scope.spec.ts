import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, test } from '@playwright/test';
import { seedDemoDatabase } from '../lib/demo/seed';
import { startConsole } from './auth-server';
import { e2eBrokers } from './brokers';
import { guardPage } from './helpers';
import { addDead, uniqueQueue } from './seed';

// A list that covers only part of what it lists says so next to its rows: a text search looks
// at the newest `searchWindow` letters only (SQLite, PostgreSQL), and an adapter can say in its
// own words what else bounds a list (RabbitMQ: a DLQ deeper than one read). The error groups say
// the same of themselves: how many letters they count, and what was left out.

test('a text search says it looked only at the newest letters; the unfiltered list says nothing', async ({ page }) => {
  const { main } = e2eBrokers();
  const queue = uniqueQueue('scope');
  const token = `scope${Date.now().toString(36)}`;
  const id = addDead(main, { queue, reason: `ValueError: ${token} broke` });
  const { pageErrors } = guardPage(page);

  await page.goto(`/brokers/main/dead?q=${token}`);
  await expect(page.locator(`[data-testid="dead-row"][data-id="${id}"]`)).toBeVisible();
  const note = page.getByTestId('dead-list-card').getByTestId('list-scope');
  await expect(note).toHaveText('This search looks at no more than the newest 10,000 letters: older ones may not be listed.');
  await expect(note).toHaveAttribute('role', 'note');

  await page.goto(`/brokers/main/dead?queue=${queue}`);
  await expect(page.locator(`[data-testid="dead-row"][data-id="${id}"]`)).toBeVisible();
  await expect(page.getByTestId('list-scope')).toHaveCount(0);
  await expect(page.getByTestId('dead-groups-total')).toContainText('1 letter in 1 group:');
  await expect(page.getByTestId('dead-groups-scope')).toHaveCount(0);
  expect(pageErrors).toEqual([]);
});

test('error groups over fewer letters than the queue holds say how many of how many, and promise no group size', async ({ page }) => {
  test.setTimeout(90_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'potatoq-groups-scope-'));
  const file = path.join(dir, 'narrow.sqlite3');
  const db = new Database(file);
  try {
    seedDemoDatabase(db);
  } finally {
    db.close();
  }
  const queue = uniqueQueue('gscope');
  for (let i = 0; i < 8; i++) addDead(file, { queue, reason: `ValueError: order ${i} late` });
  const broker = { id: 'narrow', name: 'Narrow', url: `sqlite:///${file}`, searchWindow: 5 };
  const c = await startConsole({ POTATOQ_CONSOLE_BROKERS: JSON.stringify([broker]) });
  const { pageErrors } = guardPage(page);
  try {
    await page.goto(`${c.url}/brokers/narrow/dead?queue=${queue}`);
    const card = page.getByTestId('dead-groups-card');
    const note = card.getByTestId('dead-groups-scope');
    await expect(note).toHaveText(
      "Grouped the newest 5 of 8 dead letters (the searchWindow option): the 3 older ones are in no group's count.",
    );
    await expect(note).toHaveAttribute('role', 'note');
    await expect(card.getByTestId('dead-group-count')).toHaveText('5');
    await expect(card.getByTestId('dead-groups-total')).toContainText('5 letters in 1 group');
    // The group's own page: its count is a lower bound, so the bulk button names no number.
    await card.getByTestId('dead-group-link').click();
    await expect(page).toHaveURL(/group=fp-[0-9a-f]{16}/);
    await expect(page.getByTestId('group-count')).toHaveText(
      'This group, every page: at least 5 letters (the groups count only part of the dead letters)',
    );
    await expect(page.getByTestId('bulk-all-replay')).toHaveText('Replay all of this group…');
    expect(pageErrors).toEqual([]);
  } finally {
    await c.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
