import { BuildMessageError, buildMessage } from '@/lib/potatoq';
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

export type Check = { ok: true; json: string; scheduled: boolean } | { ok: false; fields: Record<string, string> };

/** Client-side validation: the same zod schema and message builder the server runs. */
export function checkForm(v: FormValues): Check {
  if (v.timing === 'eta' && v.eta && !localToIso(v.eta)) return { ok: false, fields: { eta: 'not a valid date and time' } };
  const parsed = ZEnqueueInput.safeParse(toRequest(v));
  if (!parsed.success) return { ok: false, fields: fieldsOf(parsed.error) };
  try {
    // crypto.randomUUID exists only in secure contexts (https, localhost); the preview's id is
    // replaced at write time anyway.
    const id = typeof globalThis.crypto?.randomUUID === 'function' ? undefined : '00000000-0000-4000-8000-000000000000';
    const m = buildMessage({ ...parsed.data, id });
    return { ok: true, json: m.json, scheduled: m.eta !== null };
  } catch (e) {
    if (e instanceof BuildMessageError) return { ok: false, fields: { [e.field]: e.message } };
    return { ok: false, fields: { _: e instanceof Error ? e.message : String(e) } };
  }
}
