import { z } from 'zod';
import { ZWebhookSettings } from './webhook-schema';

// Queue-health targets ("alert when …"), as the config file's `alerts.targets` and the
// POTATOQ_CONSOLE_ALERTS variable hold them. Client-safe: the targets page shows these words.

export const ALERT_KINDS = [
  'oldestWaiting',
  'deadPerMinute',
  'newFingerprint',
  'noConsumer',
  'stuck',
  'missedSchedule',
  'unreachable',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** What each kind measures, and what its threshold means (null: it has none, any 1 breaches). */
export const KIND_WORDS: Record<AlertKind, { value: string; threshold: string | null }> = {
  oldestWaiting: { value: 'seconds the oldest waiting task has waited', threshold: 'seconds' },
  deadPerMinute: { value: 'new dead letters per minute since the previous read', threshold: 'letters per minute' },
  newFingerprint: { value: 'error fingerprints among the dead letters not seen when the console started watching', threshold: null },
  noConsumer: { value: '1 when work waits and no consumer or live worker takes it', threshold: null },
  stuck: { value: 'queues whose next task no worker can take (its head is undecodable)', threshold: null },
  missedSchedule: { value: 'schedules that missed a firing or whose last firing failed', threshold: null },
  unreachable: { value: '1 when the broker did not answer its read (an error, or no answer within the metrics budget)', threshold: null },
};

/** Kinds that watch the broker itself: they take no queue. */
export const BROKER_KINDS: readonly AlertKind[] = ['unreachable'];

const NEEDS_THRESHOLD: readonly AlertKind[] = ['oldestWaiting', 'deadPerMinute'];

export const ZAlertTarget = z
  .strictObject({
    id: z
      .string({ error: 'id must be a string' })
      .regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, 'id must be 1-63 lowercase letters, digits, - or _ (it becomes a Prometheus label)'),
    broker: z.string({ error: 'broker must be a broker id' }).min(1, 'broker must be a broker id').max(200),
    /** Absent: every queue of the broker (the value is the worst queue's). */
    queue: z.string({ error: 'queue must be a string' }).min(1).max(500).optional(),
    kind: z.enum(ALERT_KINDS, { error: `kind must be one of ${ALERT_KINDS.join(', ')}` }),
    threshold: z.number({ error: 'threshold must be a number' }).positive('threshold must be above 0').max(1e9).optional(),
    for: z
      .string({ error: 'for must be a duration like "5m"' })
      .regex(/^\d{1,4}[smh]$/, 'for must be a duration like "30s", "5m" or "1h"')
      .default('5m'),
    severity: z.enum(['info', 'warning', 'critical'], { error: 'severity must be info, warning or critical' }).default('warning'),
  })
  .check((ctx) => {
    const t = ctx.value;
    if (NEEDS_THRESHOLD.includes(t.kind) && t.threshold === undefined)
      ctx.issues.push({
        code: 'custom',
        message: `threshold is required for ${t.kind} (${KIND_WORDS[t.kind].threshold})`,
        input: t,
        path: ['threshold'],
      });
    if (!NEEDS_THRESHOLD.includes(t.kind) && t.threshold !== undefined)
      ctx.issues.push({ code: 'custom', message: `${t.kind} takes no threshold (it breaches at 1)`, input: t, path: ['threshold'] });
    if (BROKER_KINDS.includes(t.kind) && t.queue !== undefined)
      ctx.issues.push({ code: 'custom', message: `${t.kind} watches the whole broker and takes no queue`, input: t, path: ['queue'] });
  });
export type AlertTarget = z.infer<typeof ZAlertTarget>;

export const ZAlertTargets = z
  .array(ZAlertTarget, { error: 'targets must be a list' })
  .max(500, 'at most 500 targets')
  .check((ctx) => {
    const seen = new Set<string>();
    ctx.value.forEach((t, i) => {
      if (seen.has(t.id)) ctx.issues.push({ code: 'custom', message: `id "${t.id}" is used twice`, input: t.id, path: [i, 'id'] });
      seen.add(t.id);
    });
  });

export const ZAlertsConfig = z.strictObject({
  targets: ZAlertTargets.default([]),
  webhook: ZWebhookSettings.optional(),
});
export type AlertsConfig = z.infer<typeof ZAlertsConfig>;
