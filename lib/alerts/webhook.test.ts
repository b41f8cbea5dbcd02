import { describe, expect, it } from 'vitest';
import { durationMs, stepFiring } from './firing';
import { ZAlertTarget } from './schema';
import { backoffMs, deliver, rateLimited, signature, webhookBody } from './webhook';
import { ZWebhookSettings } from './webhook-schema';

const target = ZAlertTarget.parse({ id: 'mail-slow', broker: 'main', queue: 'a<b>&c', kind: 'oldestWaiting', threshold: 60, for: '1m' });
const hook = ZWebhookSettings.parse({ url: 'https://hooks.example.test/T0/B0/s3cr3t-path', secret: 'sign-me-please' });
const at = new Date('2026-01-01T00:00:00Z');

/** A receiver answering the statuses in turn (a thrown Error: no answer). */
function receiver(answers: Array<number | Error>) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fetch = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    const a = answers[Math.min(calls.length - 1, answers.length - 1)]!;
    if (a instanceof Error) throw a;
    return new Response('x', { status: a });
  }) as unknown as typeof globalThis.fetch;
  return { calls, fetch };
}
const waits: number[] = [];
const sleep = async (ms: number) => void waits.push(ms);

describe('webhook settings', () => {
  it('names the field of a bad setting and defaults the rest', () => {
    expect(ZWebhookSettings.safeParse({ url: 'ftp://x' }).error?.issues[0]).toMatchObject({ path: ['url'] });
    expect(ZWebhookSettings.safeParse({ url: 'https://x', secret: 'short' }).error?.issues[0]).toMatchObject({ path: ['secret'] });
    expect(ZWebhookSettings.safeParse({ url: 'https://x', minIntervalSeconds: -1 }).error?.issues[0]?.path).toEqual(['minIntervalSeconds']);
    expect(ZWebhookSettings.parse({ url: 'https://x' })).toEqual({ url: 'https://x', minIntervalSeconds: 300, sendResolved: true });
  });
});

describe('webhookBody', () => {
  it('is Slack-compatible text with the deep link, plus structured fields; names stay text', () => {
    const b = webhookBody('firing', target, 75.123, 'https://c.example', at);
    expect(b.text).toBe(
      '[WARNING] mail-slow is firing: oldestWaiting on main/a&lt;b&gt;&amp;c: 75.12 (threshold 60 seconds) <https://c.example/brokers/main/queues/a%3Cb%3E%26c|Open in the console>',
    );
    expect(b).toMatchObject({ event: 'firing', value: 75.123, consoleUrl: 'https://c.example/brokers/main/queues/a%3Cb%3E%26c' });
    expect(b.target).toEqual({
      id: 'mail-slow',
      broker: 'main',
      queue: 'a<b>&c',
      kind: 'oldestWaiting',
      severity: 'warning',
      threshold: 60,
    });
    expect(webhookBody('resolved', target, 0, null, at).text).toMatch(
      /^\[RESOLVED\] mail-slow: .* \(\/brokers\/main\/queues\/a%3Cb%3E%26c\)$/,
    );
  });
});

describe('deliver', () => {
  it('retries a 5xx and a timeout with growing waits, then stops at the bound', async () => {
    waits.length = 0;
    const r = receiver([503, Object.assign(new Error('t'), { name: 'TimeoutError' }), 502]);
    const d = await deliver(hook, webhookBody('test', null, null, null, at), { fetch: r.fetch, sleep, baseDelayMs: 100 });
    expect(d).toEqual({ ok: false, status: 502, attempts: 3, error: 'the receiver answered HTTP 502' });
    expect(waits).toEqual([100, 200]);
    expect(r.calls).toHaveLength(3);
  });
  it('does not retry a 4xx, and succeeds on a retry after a refused connection', async () => {
    const bad = receiver([404]);
    expect(await deliver(hook, webhookBody('test', null, null, null, at), { fetch: bad.fetch, sleep })).toMatchObject({
      ok: false,
      attempts: 1,
    });
    const refused = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    const flaky = receiver([refused, 200]);
    expect(await deliver(hook, webhookBody('test', null, null, null, at), { fetch: flaky.fetch, sleep })).toEqual({
      ok: true,
      status: 200,
      attempts: 2,
      error: null,
    });
  });
  it('signs the exact body with the secret, and never says the URL in an error', async () => {
    const r = receiver([Object.assign(new TypeError('fetch failed https://hooks.example.test/T0/B0/s3cr3t-path'), { cause: {} })]);
    const d = await deliver(hook, webhookBody('test', null, null, null, at), { fetch: r.fetch, sleep, attempts: 1 });
    expect(d.error).toBe('no connection');
    const init = r.calls[0]!.init;
    expect((init.headers as Record<string, string>)['x-potatoq-signature']).toBe(signature('sign-me-please', init.body as string));
  });
  it('caps the backoff', () => expect(backoffMs(10, 1000)).toBe(30_000));
});

describe('rate limit and firing', () => {
  it('holds a delivery for a target sent less than the interval ago', () => {
    const t0 = Date.parse('2026-01-01T00:00:00Z');
    expect(rateLimited(null, t0, 300)).toBe(false);
    expect(rateLimited(new Date(t0 - 299_000).toISOString(), t0, 300)).toBe(true);
    expect(rateLimited(new Date(t0 - 300_000).toISOString(), t0, 300)).toBe(false);
  });
  it('fires once breached for the whole `for`, keeps its state on unknown, resolves when no longer breached', () => {
    expect(durationMs('90s')).toBe(90_000);
    const r = (value: number | null, breached: boolean) => ({ target, value, breached });
    const a = stepFiring(undefined, r(70, true), 0);
    expect(a).toEqual({ since: 0, firing: false });
    expect(stepFiring(a.since, r(null, false), 30_000)).toEqual({ since: 0, firing: null });
    expect(stepFiring(a.since, r(80, true), 60_000)).toEqual({ since: 0, firing: true });
    expect(stepFiring(0, r(10, false), 61_000)).toEqual({ since: undefined, firing: false });
  });
});
