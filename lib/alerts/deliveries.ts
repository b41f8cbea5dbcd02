import 'server-only';
import { newEntry } from '@/lib/audit/record';
import { getAuditStore } from '@/lib/audit/store';
import type { AlertTarget } from './schema';
import { deliver, webhookBody, type Delivery, type DeliveryOptions, type WebhookEvent } from './webhook';
import type { WebhookSettings } from './webhook-schema';

// A webhook delivery with its audit entry (outcome, status, attempts; never the URL), by the
// console itself or by the operator who pressed "send test".

export const WEBHOOK_BROKER = '(console)';

export interface Sender {
  user: string;
  role: string | null;
  via: string | null;
}
const CONSOLE: Sender = { user: 'console', role: null, via: 'alerts' };

export async function auditDelivery(
  event: WebhookEvent,
  t: AlertTarget | null,
  d: Delivery | { skipped: string },
  link: string | null,
  who: Sender = CONSOLE,
): Promise<void> {
  const entry = newEntry({ action: 'alert-webhook', broker: t?.broker ?? WEBHOOK_BROKER, who, input: { queue: t?.queue }, reason: null });
  const skipped = 'skipped' in d;
  const done = { ...entry, finishedAt: new Date().toISOString() };
  await (
    await getAuditStore()
  ).begin({
    ...done,
    outcome: skipped ? 'refused' : d.ok ? 'done' : 'failed',
    code: skipped ? 'RateLimited' : d.ok ? null : 'WebhookFailed',
    message: skipped ? d.skipped : d.error,
    details: {
      event,
      target: t?.id ?? null,
      consoleUrl: link,
      ...(skipped ? {} : { status: d.status, attempts: d.attempts }),
    },
  });
}

/** Sends one event and records it; never throws (a receiver that is down is an audited failure). */
export async function sendAndAudit(
  w: WebhookSettings,
  event: WebhookEvent,
  t: AlertTarget | null,
  value: number | null,
  publicUrl: string | null,
  o: DeliveryOptions & { who?: Sender } = {},
): Promise<Delivery> {
  const body = webhookBody(event, t, value, publicUrl, new Date());
  const d = await deliver(w, body, o).catch(() => ({ ok: false, status: null, attempts: 0, error: 'not sent' }));
  await auditDelivery(event, t, d, body.consoleUrl, o.who).catch((e: unknown) =>
    console.error(JSON.stringify({ event: 'console.audit-error', action: 'alert-webhook', message: String(e) })),
  );
  return d;
}
