// Queue-health targets against a real potatoq SQLite broker written by the real potatoq (its
// Python seeder): a task left waiting, dead letters arriving with a new error, nobody consuming.
// Each target crosses from the console's own reads, shows in /metrics, and the generated rules
// pass the real promtool with the console's link in their annotations.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPySeeder, type PySeeder } from '@/tests/support/potatoq-seeder';
import { migratedDb } from '@/tests/support/sqlite-db';

const file = migratedDb();
const BASE = 'https://console.example.test';
process.env.POTATOQ_CONSOLE_BROKERS = JSON.stringify([{ id: 'pq', url: `sqlite:///${file}` }]);
process.env.POTATOQ_CONSOLE_PUBLIC_URL = `${BASE}/`;
process.env.POTATOQ_CONSOLE_ALERTS = JSON.stringify({
  targets: [
    { id: 'mail-slow', broker: 'pq', queue: 'mail', kind: 'oldestWaiting', threshold: 1, for: '1m' },
    { id: 'mail-dead', broker: 'pq', queue: 'mail', kind: 'deadPerMinute', threshold: 1 },
    { id: 'mail-new-error', broker: 'pq', queue: 'mail', kind: 'newFingerprint', severity: 'critical' },
    { id: 'mail-idle', broker: 'pq', queue: 'mail', kind: 'noConsumer' },
    { id: 'other-slow', broker: 'pq', queue: 'other', kind: 'oldestWaiting', threshold: 1 },
  ],
});
const { takeSnapshot } = await import('@/lib/metrics/snapshot');
const { renderMetrics } = await import('@/lib/metrics/render');
const { alertsText, lastReadings } = await import('@/lib/alerts/watch');
const { getAlertSettings } = await import('@/lib/alerts/config');
const { alertRules } = await import('@/lib/alerts/rules');

const series = (text: string, target: string, name: string) =>
  new RegExp(`^potatoq_console_alert_${name}\\{target="${target}",[^}]*\\} (\\S+)$`, 'm').exec(text)?.[1];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('queue-health targets on a real potatoq SQLite broker', () => {
  let py: PySeeder;
  beforeAll(() => {
    py = startPySeeder(`sqlite:///${file}`);
  });
  afterAll(async () => {
    await py?.close();
    const { resetAdapters } = await import('@/lib/brokers/registry');
    await resetAdapters();
  });

  it('crosses each target from the broker as potatoq wrote it, and exports the series', async () => {
    await py.call('enqueue', { task: 'shop.send', queue: 'mail', args: [1] });
    await py.call('dead_letter', { task: 'shop.send', queue: 'mail', reason: 'ValueError: boom' });
    await sleep(1500);
    const first = await alertsText(await takeSnapshot());
    expect(series(first, 'mail-slow', 'breached')).toBe('1');
    expect(Number(series(first, 'mail-slow', 'value'))).toBeGreaterThan(1);
    expect(series(first, 'mail-slow', 'threshold')).toBe('1');
    // A rate needs two reads; watching fingerprints starts from what is there.
    expect(series(first, 'mail-dead', 'value')).toBeUndefined();
    expect(series(first, 'mail-new-error', 'breached')).toBe('0');
    // potatoq reports workers and none is alive while a task waits.
    expect(series(first, 'mail-idle', 'breached')).toBe('1');
    expect(series(first, 'other-slow', 'value')).toBeUndefined();
    expect(lastReadings().find((r) => r.target.id === 'other-slow')?.unknown).toBe('the broker lists no queue "other"');

    for (let i = 0; i < 3; i++) await py.call('dead_letter', { task: 'shop.send', queue: 'mail', reason: `KeyError: 'sku-${i}'` });
    const second = await alertsText(await takeSnapshot());
    expect(Number(series(second, 'mail-dead', 'value'))).toBeGreaterThan(1);
    expect(series(second, 'mail-dead', 'breached')).toBe('1');
    expect(series(second, 'mail-new-error', 'value')).toBe('1');
    expect(series(second, 'mail-new-error', 'breached')).toBe('1');

    const metrics = await renderMetrics();
    expect(metrics).toMatch(/^potatoq_console_alert_breached\{target="mail-slow",broker="pq",queue="mail",kind="oldestWaiting"\} 1$/m);
    expect(metrics).toContain('potatoq_console_broker_up{broker="pq"} 1');
  }, 60_000);

  it('writes rules the real promtool accepts, each carrying the link to the filtered view', async () => {
    const s = await getAlertSettings();
    const yaml = alertRules(s.targets, s.publicUrl);
    expect(yaml).toContain(`console_url: ${BASE}/brokers/pq/dead?queue=mail`);
    expect(yaml).toContain(`console_url: ${BASE}/brokers/pq/queues/mail`);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alert-rules-'));
    const rules = path.join(dir, 'rules.yml');
    fs.writeFileSync(rules, yaml);
    const r = spawnSync('promtool', ['check', 'rules', rules], { encoding: 'utf8' });
    if (r.error) return console.warn(`\n!!! promtool not found: SKIPPING the rule check !!!\n`);
    expect(`${r.stdout}${r.stderr}`).toMatch(/SUCCESS: 5 rules found/);
    expect(r.status).toBe(0);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
