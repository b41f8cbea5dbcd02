import path from 'node:path';
import { expect, test } from '@playwright/test';
import { binaryAvailable, PROMETHEUS } from '../tests/support/prometheus';
import { SECRETS, scryptHash, startConsole, tokenHash, type RunningConsole } from './auth-server';
import { startPrometheus, type RunningPrometheus } from './prometheus-server';

// /metrics on a production console in accounts mode, read directly and scraped by a real
// Prometheus (Debian's binary) with a metrics-only token. The console's second broker
// (`secretpg`) points at a closed port: it must show up as down, not break the scrape.

const METRICS_TOKEN = 'pqc_e2e-metrics-token-4c1d9a';
const VIEWER_TOKEN = 'pqc_e2e-viewer-token-8e2f7b';
const RULES = path.resolve(__dirname, '../docs/prometheus/alerts.yml');

type Vector = Array<{ metric: Record<string, string>; value: [number, string] }>;

test.describe('Prometheus metrics', () => {
  test.skip(!binaryAvailable(PROMETHEUS), 'prometheus is not installed (apt-get install prometheus)');
  let c: RunningConsole;
  test.beforeAll(async () => {
    c = await startConsole({
      POTATOQ_CONSOLE_AUTH: 'accounts',
      POTATOQ_CONSOLE_SESSION_SECRET: SECRETS.sessionSecret,
      POTATOQ_CONSOLE_USERS: JSON.stringify([{ user: 'olga', hash: scryptHash(SECRETS.operatorPassword), role: 'operator' }]),
      POTATOQ_CONSOLE_TOKENS: JSON.stringify([
        { name: 'prom', hash: tokenHash(METRICS_TOKEN), role: 'metrics' },
        { name: 'dash', hash: tokenHash(VIEWER_TOKEN), role: 'viewer' },
        { name: 'ci', hash: tokenHash(SECRETS.operatorToken), role: 'operator' },
      ]),
    });
  });
  test.afterAll(async () => c?.stop());

  const get = (p: string, token?: string) =>
    fetch(`${c.url}${p}`, { headers: token ? { authorization: `Bearer ${token}` } : {}, redirect: 'manual' });

  test('answers a metrics, viewer or operator token, 401 without one; a metrics token reads nothing else', async () => {
    expect((await get('/metrics')).status).toBe(401);
    expect((await get('/metrics', 'pqc_not-a-token')).status).toBe(401);
    const r = await get('/metrics', METRICS_TOKEN);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await r.text();
    expect(text).toContain('potatoq_console_broker_up{broker="main"} 1');
    expect(text).toContain('potatoq_console_broker_up{broker="secretpg"} 0');
    expect(text).not.toContain(SECRETS.brokerPassword);
    expect((await get('/metrics', VIEWER_TOKEN)).status).toBe(200);
    expect((await get('/metrics', SECRETS.operatorToken)).status).toBe(200);
    for (const p of ['/api/brokers', '/api/brokers/main/queues', '/api/audit', '/', '/brokers/main/dead']) {
      expect((await get(p, METRICS_TOKEN)).status, p).toBe(403);
    }
    const write = await fetch(`${c.url}/api/brokers/main/dead/discard`, {
      method: 'POST',
      headers: { authorization: `Bearer ${METRICS_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ids: ['x'], reason: 'no' }),
    });
    expect(write.status).toBe(403);
  });

  test('shares one read of the brokers between scrapes, concurrent or within 15 s', async () => {
    const stamp = async () =>
      /potatoq_console_metrics_snapshot_timestamp_seconds (\S+)/.exec(await (await get('/metrics', METRICS_TOKEN)).text())?.[1];
    const stamps = await Promise.all([stamp(), stamp(), stamp(), stamp()]);
    expect(new Set(stamps).size).toBe(1);
    expect(await stamp()).toBe(stamps[0]);
  });

  test('a real Prometheus scrapes it with the metrics token and finds every broker and queue series', async () => {
    // One action that ran (its id is missing: outcome failed) and one refused (a viewer).
    const discard = (token: string) =>
      fetch(`${c.url}/api/brokers/main/dead/discard`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ids: ['no-such-letter'], reason: 'metrics e2e' }),
      });
    expect((await discard(SECRETS.operatorToken)).status).toBe(200);
    expect((await discard(VIEWER_TOKEN)).status).toBe(403);

    let prom: RunningPrometheus | null = null;
    try {
      prom = await startPrometheus({ target: `127.0.0.1:${c.port}`, token: METRICS_TOKEN, rules: RULES });
      const p = prom;
      const query = (q: string) => p.api<{ result: Vector }>(`query?query=${encodeURIComponent(q)}`).then((d) => d.result);
      await expect
        .poll(async () => (await query('up{job="potatoq-console"}'))[0]?.value[1], { timeout: 30_000, message: prom.output() })
        .toBe('1');

      const overview = (await (await get('/api/brokers/main/queues', VIEWER_TOKEN)).json()) as {
        queues: Array<{ name: string; counts: { ready: number | null }; dead: number | null }>;
      };
      const tasks = await query('potatoq_console_queue_tasks{broker="main"}');
      const value = (queue: string, state: string) => tasks.find((s) => s.metric.queue === queue && s.metric.state === state)?.value[1];
      expect(tasks.length).toBeGreaterThan(4);
      expect(new Set(tasks.map((s) => s.metric.state))).toEqual(new Set(['ready', 'scheduled', 'running', 'dead']));
      for (const q of overview.queues) {
        if (q.counts.ready !== null) expect(value(q.name, 'ready'), q.name).toBe(String(q.counts.ready));
        if (q.dead !== null) expect(value(q.name, 'dead'), q.name).toBe(String(q.dead));
      }
      expect(await query('potatoq_console_queue_oldest_waiting_age_seconds{broker="main"} > 0')).not.toHaveLength(0);
      // The former name, a deprecated alias for one release (docs/metrics.md).
      expect(await query('potatoq_console_queue_oldest_ready_age_seconds{broker="main"} > 0')).not.toHaveLength(0);
      expect((await query('potatoq_console_workers{broker="main",status="alive"}'))[0]?.value[1]).toMatch(/^\d+$/);
      expect((await query('potatoq_console_broker_up'))!.map((s) => [s.metric.broker, s.value[1]]).sort()).toEqual([
        ['main', '1'],
        ['secretpg', '0'],
      ]);
      expect(
        Number((await query('potatoq_console_broker_scrape_errors_total{broker="secretpg",code="BrokerUnavailable"}'))[0]?.value[1]),
      ).toBeGreaterThanOrEqual(1);
      expect(await query('potatoq_console_broker_scrape_duration_seconds{broker="main"}')).toHaveLength(1);
      const actions = await query('potatoq_console_actions_total{broker="main",action="discard"}');
      expect(actions.map((s) => [s.metric.outcome, s.value[1]]).sort()).toEqual([
        ['failed', '1'],
        ['refused', '1'],
      ]);

      // The documented alert rules load and evaluate against the console's real series.
      const rules = await p.api<{ groups: Array<{ rules: Array<{ name: string; health: string; lastError?: string }> }> }>('rules');
      await expect
        .poll(async () => (await p.api<typeof rules>('rules')).groups.flatMap((g) => g.rules.map((r) => `${r.name}:${r.health}`)).sort(), {
          timeout: 15_000,
        })
        .toEqual([
          'PotatoqBrokerDown:ok',
          'PotatoqBrokerStale:ok',
          'PotatoqDeadLettersRising:ok',
          'PotatoqDeadLettersUncounted:ok',
          'PotatoqNoWorkers:ok',
          'PotatoqOldestTaskWaiting:ok',
          'PotatoqScheduleMissed:ok',
          'PotatoqSchedulesUnreadable:ok',
          'PotatoqWorkflowFailed:ok',
        ]);
      expect(rules.groups).toHaveLength(1);
      // secretpg is down: its alert is pending (`for: 2m`) already.
      await expect
        .poll(
          async () =>
            (await p.api<{ alerts: Array<{ labels: Record<string, string>; state: string }> }>('alerts')).alerts
              .filter((a) => a.labels.alertname === 'PotatoqBrokerDown')
              .map((a) => `${a.labels.broker}:${a.state}`),
          { timeout: 15_000 },
        )
        .toEqual(['secretpg:pending']);
    } finally {
      await prom?.stop();
    }
  });
});
