import 'server-only';
import { z } from 'zod';
import { ZAlertTarget } from '@/lib/alerts/schema';
import { ZWebhookSettings, ZWebhookStatus } from '@/lib/alerts/webhook-schema';
import type { Route } from './openapi-route';

// Queue-health targets edited in the console and the alert webhook (docs/alerts.md). The
// webhook's URL and secret are write-only: no answer below carries them.

const ZListed = z.object({
  id: z.string(),
  target: ZAlertTarget.nullable().describe('null: the stored row no longer parses (see problem)'),
  origin: z.enum(['config', 'console']).describe('config: from the config file, read-only here'),
  problem: z.string().nullable().describe('why a console target is not watched (an id the config file took, a broker gone)'),
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
  reading: z.object({ value: z.number().nullable(), breached: z.boolean(), unknown: z.string().nullable() }).nullable(),
});

export const alertRoutes = (e: { writer: number[]; readerOfState: number[] }): Route[] => [
  {
    method: 'get',
    path: '/api/alerts/targets',
    tag: 'metrics',
    access: 'reader',
    summary: "Every queue-health target (the config file's and the console's), its last reading, and the webhook's status",
    ok: z.object({ targets: z.array(ZListed), webhook: ZWebhookStatus, canEdit: z.boolean(), brokers: z.array(z.string()) }),
    errors: e.readerOfState,
  },
  {
    method: 'post',
    path: '/api/alerts/targets',
    tag: 'metrics',
    access: 'operator',
    summary: 'Save a target in the console (`isNew`: refuse an existing id); an id the config file has is refused; audited before/after',
    body: z.object({ target: ZAlertTarget, isNew: z.boolean().optional() }),
    ok: z.object({ saved: ZAlertTarget, before: ZAlertTarget.nullable() }),
    errors: e.writer,
  },
  {
    method: 'post',
    path: '/api/alerts/targets/remove',
    tag: 'metrics',
    access: 'operator',
    summary: "Remove a console target; a config file's is refused; audited",
    body: z.object({ id: z.string(), reason: z.string().optional().describe('why; recorded in the audit trail') }),
    ok: z.object({ removed: z.string(), before: ZAlertTarget.nullable() }),
    errors: e.writer,
  },
  {
    method: 'get',
    path: '/api/alerts/webhook',
    tag: 'metrics',
    access: 'reader',
    summary: 'Whether a webhook is set and where from; never its URL or secret',
    ok: ZWebhookStatus,
    errors: e.readerOfState,
  },
  {
    method: 'post',
    path: '/api/alerts/webhook',
    tag: 'metrics',
    access: 'operator',
    summary: 'Save the webhook (URL and secret write-only); audited without them',
    body: ZWebhookSettings,
    ok: ZWebhookStatus,
    errors: e.writer,
  },
  {
    method: 'post',
    path: '/api/alerts/webhook/remove',
    tag: 'metrics',
    access: 'operator',
    summary: "Remove the console's webhook (the config file's, if any, applies again); audited",
    body: z.object({}),
    ok: z.object({ removed: z.boolean(), webhook: ZWebhookStatus }),
    errors: e.writer,
  },
  {
    method: 'post',
    path: '/api/alerts/webhook/test',
    tag: 'metrics',
    access: 'operator',
    summary: 'Send a test message to the webhook now (one try, at most one every 5 s); audited as a delivery',
    body: z.object({}),
    ok: z.object({ ok: z.boolean(), status: z.number().nullable(), attempts: z.number(), error: z.string().nullable() }),
    errors: e.writer,
  },
];
