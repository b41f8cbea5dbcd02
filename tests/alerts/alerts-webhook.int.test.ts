// Console-edited targets and the webhook against a real potatoq SQLite broker (dead letters
// written by the real potatoq through its seeder), a real state store and a real HTTP receiver:
// a target saved through the gate fires from the background evaluator's reads, the receiver gets
// Slack-compatible JSON with the deep link (after a 503, retried), the delivery is audited, a
// restarted evaluator does not send the same transition twice, and the URL and secret are never
// answered back.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPySeeder, type PySeeder } from '@/tests/support/potatoq-seeder';
import { migratedDb } from '@/tests/support/sqlite-db';
import { startWebhookReceiver, type WebhookReceiver } from '@/tests/support/webhook-receiver';

const file = migratedDb();
const BASE = 'https://console.example.test';
const QUEUE = `mail-${process.pid}`;
process.env.POTATOQ_CONSOLE_BROKERS = JSON.stringify([{ id: 'pq', url: `sqlite:///${file}` }]);
process.env.POTATOQ_CONSOLE_STATE = path.join(path.dirname(file), 'console-state.sqlite3');
process.env.POTATOQ_CONSOLE_PUBLIC_URL = BASE;
process.env.POTATOQ_CONSOLE_ALERTS = JSON.stringify({ targets: [{ id: 'cfg-idle', broker: 'pq', kind: 'noConsumer' }] });
const ops = await import('@/lib/actions/alerts');
const { runAlertTick, resetAlertEvaluator } = await import('@/lib/alerts/evaluator');
const { signature } = await import('@/lib/alerts/webhook');
const { alertsText } = await import('@/lib/alerts/watch');
const { alertRules } = await import('@/lib/alerts/rules');
const { watchedTargets } = await import('@/lib/alerts/targets');
const { takeSnapshot } = await import('@/lib/metrics/snapshot');
const { getAuditStore } = await import('@/lib/audit/store');
const { resetAdapters } = await import('@/lib/brokers/registry');

const headers = () => new Headers({ host: 'localhost:3000' });
const SECRET = `signing-secret-${process.pid}`;
const fast = { baseDelayMs: 20 };
const audited = async (action: string) => (await (await getAuditStore()).list({ action, limit: 50 })).entries;
const fieldsOf = async (p: Promise<unknown>) =>
  (await p.then(
    () => ({}),
    (e: { fields?: Record<string, string> }) => e.fields ?? {},
  )) as Record<string, string>;
let py: PySeeder;
let hook: WebhookReceiver;

beforeAll(async () => {
  py = startPySeeder(`sqlite:///${file}`);
  hook = await startWebhookReceiver();
}, 120_000);

afterAll(async () => {
  resetAlertEvaluator();
  await hook?.close();
  await py?.close();
  await resetAdapters();
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
});

const bury = async (n: number, why: string) => {
  for (let i = 0; i < n; i++) await py.call('dead_letter', { task: 'shop.send', queue: QUEUE, reason: `${why} ${i}` });
};

describe('console-edited targets and the alert webhook', () => {
  it('refuses a bad target naming the field, and an id the config file has', async () => {
    expect(await fieldsOf(ops.saveTargetOp({ target: { id: 'x', broker: 'pq', kind: 'deadPerMinute' } }, headers()))).toMatchObject({
      'target.threshold': expect.stringMatching(/threshold is required/),
    });
    expect(await fieldsOf(ops.saveTargetOp({ target: { id: 'cfg-idle', broker: 'pq', kind: 'stuck' } }, headers()))).toEqual({
      'target.id': 'the config file has a target with this id',
    });
    expect(await fieldsOf(ops.saveTargetOp({ target: { id: 'y', broker: 'nope', kind: 'stuck' } }, headers()))).toEqual({
      'target.broker': 'not a configured broker',
    });
  });

  it('fires from the background evaluation, retries a 503, links to the filtered view, and is audited', async () => {
    const status = await ops.saveWebhookOp({ url: hook.url, secret: SECRET, minIntervalSeconds: 0 }, headers());
    expect(status).toMatchObject({ configured: true, origin: 'console', secretSet: true });
    const t = { id: 'mail-dead', broker: 'pq', queue: QUEUE, kind: 'deadPerMinute', threshold: 1, for: '0s' };
    await ops.saveTargetOp({ target: t, isNew: true }, headers());
    expect(await fieldsOf(ops.saveTargetOp({ target: t, isNew: true }, headers()))).toEqual({
      'target.id': 'a target with this id exists',
    });
    const listed = await ops.listAlertsOp(headers());
    expect(listed.targets.map((x) => [x.id, x.origin])).toEqual([
      ['cfg-idle', 'config'],
      ['mail-dead', 'console'],
    ]);
    expect(JSON.stringify(listed)).not.toContain('secret-path');
    expect(JSON.stringify(listed)).not.toContain(SECRET);

    await bury(1, 'ValueError: first');
    await runAlertTick(fast); // a rate needs two reads
    hook.answer([503, 200]);
    await bury(3, 'KeyError: sku');
    await runAlertTick(fast);
    const [failed, ok] = await hook.waitFor(2);
    expect(failed!.status).toBe(503);
    expect(ok!.raw).toBe(failed!.raw);
    expect(ok!.headers['x-potatoq-signature']).toBe(signature(SECRET, ok!.raw));
    expect(ok!.body).toMatchObject({ event: 'firing', consoleUrl: `${BASE}/brokers/pq/dead?queue=${QUEUE}` });
    expect(ok!.body.text).toContain(`<${BASE}/brokers/pq/dead?queue=${QUEUE}|Open in the console>`);
    await expect.poll(async () => (await audited('alert-webhook')).length).toBe(1);
    const [delivery] = await audited('alert-webhook');
    expect(delivery).toMatchObject({
      outcome: 'done',
      broker: 'pq',
      who: 'console',
      details: { event: 'firing', status: 200, attempts: 2 },
    });
    const saved = (await audited('alert-target-save')).find((e) => e.outcome === 'done');
    expect(saved!.details).toMatchObject({ target: 'mail-dead', before: null, after: { threshold: 1 } });
    expect(JSON.stringify(await audited('alert-webhook-save'))).not.toContain('secret-path');

    // Another process (or this one restarted) sees it firing too: the state store says it was sent.
    resetAlertEvaluator();
    await bury(3, 'KeyError: sku');
    await runAlertTick(fast);
    await new Promise((r) => setTimeout(r, 500));
    expect(hook.received).toHaveLength(2);

    // No new letters: resolved, sent once.
    await runAlertTick(fast);
    const all = await hook.waitFor(3);
    expect(all[2]!.body).toMatchObject({ event: 'resolved' });
  }, 120_000);

  it('exports console-edited targets in the series and the rules', async () => {
    expect(alertRules(await watchedTargets(), BASE)).toContain('alert: PotatoqTarget_mail_dead');
    expect(await alertsText(await takeSnapshot())).toMatch(
      /^potatoq_console_alert_threshold\{target="mail-dead",broker="pq",queue="mail-\d+",kind="deadPerMinute"\} 1$/m,
    );
  });

  it('a webhook that is down answers a failed test at once, audited, and removal is audited', async () => {
    const closed = await startWebhookReceiver();
    await closed.close();
    await ops.saveWebhookOp({ url: closed.url }, headers());
    const started = Date.now();
    expect(await ops.testWebhookOp({}, headers())).toMatchObject({
      ok: false,
      status: null,
      error: expect.stringMatching(/^no connection/),
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    const tests = (await audited('alert-webhook')).filter((e) => e.details.event === 'test');
    expect(tests[0]).toMatchObject({ outcome: 'failed', who: 'anonymous', broker: '(console)' });
    expect(await ops.removeTargetOp({ id: 'mail-dead' }, headers())).toMatchObject({ removed: 'mail-dead' });
    expect(await fieldsOf(ops.removeTargetOp({ id: 'cfg-idle' }, headers()))).toEqual({ id: 'from the config file' });
    expect((await audited('alert-target-remove'))[0]!.details).toMatchObject({
      target: 'mail-dead',
      after: null,
      before: { id: 'mail-dead' },
    });
  });
});
