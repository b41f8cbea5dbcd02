import { ZEnqueueInput } from '@/lib/actions/schemas';
import { fieldsOf } from '@/lib/actions/zod-fields';

export interface FormValues {
  task: string;
  queue: string;
  args: string;
  kwargs: string;
  priority: string;
  timing: 'now' | 'countdown' | 'eta';
  countdown: string;
  /** `datetime-local` text, the viewer's local time. */
  eta: string;
  expires: string;
  headers: string;
}

export const INITIAL: FormValues = {
  task: '',
  queue: 'default',
  args: '[]',
  kwargs: '{}',
  priority: '0',
  timing: 'now',
  countdown: '',
  eta: '',
  expires: '',
  headers: '{}',
};

/** A datetime-local value as an ISO instant (UTC), or null when empty/invalid. */
export function localToIso(local: string): string | null {
  if (!local) return null;
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** What is sent to the server action (the same shape the POST /enqueue route takes). */
export function toRequest(v: FormValues): Record<string, unknown> {
  return {
    task: v.task,
    queue: v.queue,
    args: v.args,
    kwargs: v.kwargs,
    headers: v.headers,
    priority: v.priority,
    countdown: v.timing === 'countdown' ? v.countdown : undefined,
    eta: v.timing === 'eta' ? (localToIso(v.eta) ?? v.eta) : undefined,
    expires: v.expires || undefined,
  };
}

export type Check = { ok: true } | { ok: false; fields: Record<string, string> };

/** Client-side validation with the server's own zod schema; what the message itself makes of
 *  the values (tagged types, dates) is the broker adapter's word, through the preview. */
export function checkForm(v: FormValues): Check {
  if (v.timing === 'eta' && v.eta && !localToIso(v.eta)) return { ok: false, fields: { eta: 'not a valid date and time' } };
  const parsed = ZEnqueueInput.safeParse(toRequest(v));
  if (!parsed.success) return { ok: false, fields: fieldsOf(parsed.error) };
  return { ok: true };
}
