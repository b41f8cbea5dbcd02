import type { AlertTarget } from '@/lib/alerts/schema';
import type { WebhookStatus } from '@/lib/alerts/webhook-schema';

/** GET /api/alerts/targets, as the page reads it. */
export interface AlertsAnswer {
  targets: Array<{
    id: string;
    target: AlertTarget | null;
    origin: 'config' | 'console';
    problem: string | null;
    updatedAt: string | null;
    updatedBy: string | null;
    reading: { value: number | null; breached: boolean; unknown: string | null } | null;
  }>;
  webhook: WebhookStatus;
  canEdit: boolean;
  brokers: string[];
}

export const ALERTS_KEY = ['alerts', 'targets'];

/** Field errors from the server (`target.threshold`) as the form's own keys (`threshold`). */
export const formFields = (f: Record<string, string> | undefined, prefix = 'target.') =>
  Object.fromEntries(Object.entries(f ?? {}).map(([k, v]) => [k.startsWith(prefix) ? k.slice(prefix.length) : k, v]));
