import { createHmac } from 'node:crypto';
import { targetLink, targetWhere } from './links';
import { KIND_WORDS, type AlertTarget } from './schema';
import type { WebhookSettings } from './webhook-schema';

// One webhook delivery: a Slack-compatible body (`text`, with the link in Slack's `<url|label>`
// form) plus structured fields for any other receiver, POSTed with a timeout and retried with
// backoff on a 5xx, a 429, a timeout or a refused connection, a bounded number of times. Pure but
// for the fetch it is handed. Nothing it answers or throws carries the URL or the secret.

export type WebhookEvent = 'firing' | 'resolved' | 'test';

export interface WebhookBody {
  text: string;
  event: WebhookEvent;
  target: { id: string; broker: string; queue: string | null; kind: string; severity: string; threshold: number | null } | null;
  value: number | null;
  consoleUrl: string | null;
  at: string;
}

/** Slack reads `&`, `<` and `>` as markup: names from the configuration stay text. */
const slackText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function webhookBody(
  event: WebhookEvent,
  t: AlertTarget | null,
  value: number | null,
  publicUrl: string | null,
  at: Date,
): WebhookBody {
  if (!t)
    return {
      text: 'potatoq console: a test of the alert webhook',
      event,
      target: null,
      value: null,
      consoleUrl: publicUrl,
      at: at.toISOString(),
    };
  const where = targetWhere(t);
  const limit = t.threshold !== undefined ? ` (threshold ${t.threshold} ${KIND_WORDS[t.kind].threshold})` : '';
  const seen = value === null ? '' : `: ${Math.round(value * 100) / 100}${limit}`;
  const link = targetLink(t, publicUrl);
  const head = event === 'firing' ? `[${t.severity.toUpperCase()}] ${t.id} is firing` : `[RESOLVED] ${t.id}`;
  // A path alone is no link a chat can open (POTATOQ_CONSOLE_PUBLIC_URL is not set): shown as text.
  const open = /^https?:\/\//.test(link) ? ` <${slackText(link)}|Open in the console>` : ` (${slackText(link)})`;
  return {
    text: `${slackText(`${head}: ${t.kind} on ${where}${seen}`)}${open}`,
    event,
    target: { id: t.id, broker: t.broker, queue: t.queue ?? null, kind: t.kind, severity: t.severity, threshold: t.threshold ?? null },
    value,
    consoleUrl: link,
    at: at.toISOString(),
  };
}

export interface DeliveryOptions {
  fetch?: typeof fetch;
  /** Per attempt. */
  timeoutMs?: number;
  attempts?: number;
  baseDelayMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

export interface Delivery {
  ok: boolean;
  /** The last HTTP status; null when no answer came (timeout, refused). */
  status: number | null;
  attempts: number;
  /** Why it failed, in words, without the URL. */
  error: string | null;
}

export const MAX_ATTEMPTS = 3;

/** The wait before retry n (1-based): base, 2×base, 4×base…, capped at 30 s. */
export const backoffMs = (n: number, base: number) => Math.min(30_000, base * 2 ** (n - 1));

/** Whether an answer (or no answer: null) is worth another attempt. */
export const retryable = (status: number | null) => status === null || status === 429 || status >= 500;

/** The signature header value: HMAC-SHA256 of the exact body with the secret. */
export const signature = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

function reasonOf(e: unknown): string {
  if (e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError')) return 'no answer in time';
  const code = (e as { cause?: { code?: unknown } })?.cause?.code;
  return typeof code === 'string' ? `no connection (${code.slice(0, 40)})` : 'no connection';
}

export async function deliver(w: WebhookSettings, body: WebhookBody, o: DeliveryOptions = {}): Promise<Delivery> {
  const send = o.fetch ?? fetch;
  const attempts = Math.max(1, Math.min(o.attempts ?? MAX_ATTEMPTS, 5));
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref?.()));
  const json = JSON.stringify(body);
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'potatoq-console' };
  if (w.secret) headers['x-potatoq-signature'] = signature(w.secret, json);
  let last: Delivery = { ok: false, status: null, attempts: 0, error: null };
  for (let n = 1; n <= attempts; n++) {
    if (n > 1) await sleep(backoffMs(n - 1, o.baseDelayMs ?? 1_000));
    try {
      const res = await send(w.url, {
        method: 'POST',
        headers,
        body: json,
        redirect: 'manual',
        signal: AbortSignal.timeout(o.timeoutMs ?? 5_000),
      });
      await res.body?.cancel().catch(() => undefined);
      if (res.ok) return { ok: true, status: res.status, attempts: n, error: null };
      last = { ok: false, status: res.status, attempts: n, error: `the receiver answered HTTP ${res.status}` };
      if (!retryable(res.status)) return last;
    } catch (e) {
      last = { ok: false, status: null, attempts: n, error: reasonOf(e) };
    }
  }
  return last;
}

/** Whether a delivery for a target last sent at `sentAt` must wait (per-target rate limit). */
export function rateLimited(sentAt: string | null, now: number, minIntervalSeconds: number): boolean {
  if (!sentAt) return false;
  const last = Date.parse(sentAt);
  return Number.isFinite(last) && now - last < minIntervalSeconds * 1000;
}
