import { z } from 'zod';

// The optional alert webhook (a Slack-compatible incoming webhook or any HTTP receiver), as the
// config file's `alerts.webhook`, POTATOQ_CONSOLE_ALERTS and the alerts page hold it. The URL
// and the secret are write-only: no API answer carries them (WebhookStatus says only whether
// they are set). Client-safe: the page checks with the same schema the server stores with.

export const ZWebhookSettings = z
  .strictObject({
    url: z
      .string({ error: 'url must be the webhook address' })
      .trim()
      .max(2000, 'url: at most 2,000 characters')
      .regex(/^https?:\/\/[^\s/?#]+[^\s]*$/, 'url must be an http(s) address, e.g. https://hooks.slack.com/services/…'),
    /** Optional: each delivery carries `X-Potatoq-Signature: sha256=<HMAC of the body>` with it. */
    secret: z.string({ error: 'secret must be text' }).min(8, 'secret: at least 8 characters').max(500).optional(),
    /** At most one delivery per target in this many seconds (a flapping target is not a flood). */
    minIntervalSeconds: z
      .number({ error: 'minIntervalSeconds must be a number of seconds' })
      .int('minIntervalSeconds must be a whole number')
      .min(0, 'minIntervalSeconds: at least 0')
      .max(86_400, 'minIntervalSeconds: at most 86,400 (a day)')
      .default(300),
    /** Also send when a target stops firing. */
    sendResolved: z.boolean({ error: 'sendResolved must be true or false' }).default(true),
  })
  .meta({ id: 'WebhookSettings' });
export type WebhookSettings = z.output<typeof ZWebhookSettings>;

/** What any API answers about the webhook: never its URL or secret. */
export const ZWebhookStatus = z
  .strictObject({
    configured: z.boolean(),
    /** Where it comes from: the console's state store, the config file (or variable), or nowhere. */
    origin: z.enum(['console', 'config', 'none']),
    secretSet: z.boolean(),
    minIntervalSeconds: z.number().nullable(),
    sendResolved: z.boolean().nullable(),
    updatedAt: z.string().nullable(),
    updatedBy: z.string().nullable(),
  })
  .meta({ id: 'WebhookStatus' });
export type WebhookStatus = z.infer<typeof ZWebhookStatus>;
