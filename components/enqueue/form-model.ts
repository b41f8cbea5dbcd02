// The enqueue form's state and checks, from the fields the broker's adapter declares
// (`model.actions.enqueue`). Nothing here knows a system: what the values mean is the adapter's
// word, through the preview and the write; this only catches what the declaration already says.
import type { EnqueueDecl, EnqueueFieldDecl } from '@/lib/brokers/schema';

export interface FormValues {
  task: string;
  queue: string;
  /** False once the operator typed a queue: it no longer follows the task's route. */
  queueFollows: boolean;
  /** Each declared field's text, by key. */
  values: Record<string, string>;
  /** Each exclusive group's chosen field key ('' = none, e.g. "Now"). */
  chosen: Record<string, string>;
}

export function initialValues(decl: EnqueueDecl): FormValues {
  return {
    task: '',
    queue: decl.defaultQueue,
    queueFollows: true,
    values: Object.fromEntries(decl.fields.map((f) => [f.key, f.default ?? ''])),
    chosen: Object.fromEntries(decl.fields.flatMap((f) => (f.exclusive ? [[f.exclusive, '']] : []))),
  };
}

/** A datetime-local value as an ISO instant (UTC), or null when empty/invalid. */
export function localToIso(local: string): string | null {
  if (!local) return null;
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** Whether the form sends this field: not an unchosen alternative of an exclusive group. */
export const isActive = (f: EnqueueFieldDecl, v: FormValues) => !f.exclusive || v.chosen[f.exclusive] === f.key;

/** What is sent to the server action (the same shape the POST /enqueue route takes). Empty text
 *  is "not given"; a datetime is sent as the ISO instant of the viewer's local time. */
export function toRequest(
  decl: EnqueueDecl,
  v: FormValues,
  queue = v.queue,
): { task: string; queue: string; fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  for (const f of decl.fields) {
    const text = v.values[f.key] ?? '';
    if (!isActive(f, v) || text.trim() === '') continue;
    fields[f.key] = f.kind === 'datetime' ? (localToIso(text) ?? text) : text;
  }
  return { task: v.task.trim(), queue: queue.trim(), fields };
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** The declaration's own rules for one value: required, number format and bounds, a datetime. */
export function checkField(f: EnqueueFieldDecl, text: string): string | null {
  const t = text.trim();
  if (!t) return f.required ? `${f.label} is required` : null;
  if (f.kind === 'integer' || f.kind === 'duration') {
    if (!NUMBER.test(t)) return f.kind === 'integer' ? 'not a whole number' : 'not a number of seconds';
    const n = Number(t);
    if (f.kind === 'integer' && !Number.isInteger(n)) return 'not a whole number';
    if (f.min !== undefined && n < f.min) return `at least ${f.min}`;
    if (f.max !== undefined && n > f.max) return `at most ${f.max}`;
  }
  if (f.kind === 'datetime' && !localToIso(t)) return 'not a valid date and time';
  return null;
}

export type Check = { ok: true } | { ok: false; fields: Record<string, string> };

/** Client-side checks from the declaration (the adapter's preview says the rest). */
export function checkForm(decl: EnqueueDecl, v: FormValues): Check {
  const fields: Record<string, string> = {};
  if (!v.task.trim()) fields.task = 'task name is required';
  else if (v.task.trim().length > 500) fields.task = 'task name longer than 500 characters';
  if (v.queue.trim().length > 200) fields.queue = 'queue name longer than 200 characters';
  for (const f of decl.fields) {
    if (!isActive(f, v)) continue;
    const msg = checkField(f, v.values[f.key] ?? '');
    if (msg) fields[f.key] = msg;
  }
  return Object.keys(fields).length ? { ok: false, fields } : { ok: true };
}

/**
 * The errors to show under one input: its own, and those of paths inside it (`kwargs.when`),
 * each prefixed with the rest of its path. Null when there are none.
 */
export function errorFor(key: string, fields: Record<string, string>): string | null {
  const own = fields[key];
  const out: string[] = own === undefined ? [] : [own];
  for (const [path, msg] of Object.entries(fields)) if (path.startsWith(`${key}.`)) out.push(`${path.slice(key.length + 1)}: ${msg}`);
  return out.length ? out.join('\n') : null;
}

/** Whether some error is shown under none of the inputs (then it is shown by the button). */
export function unplaced(fields: Record<string, string>, keys: string[]): string[] {
  return Object.entries(fields)
    .filter(([path]) => !keys.some((k) => path === k || path.startsWith(`${k}.`)))
    .map(([path, msg]) => (path === '_' ? msg : `${path}: ${msg}`));
}
