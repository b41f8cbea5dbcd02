// The mapping editor's state and its conversion to the mapping the server stores; the same zod
// schema checks it before it is sent (errors under each field), the server checks it again.
import { ZCallMapping, NON_JSON, NON_JSON_KINDS, type CallMapping, type NonJsonKind } from '@/lib/brokers/mapping/schema';

export interface MappingDraft {
  target: string;
  task: string;
  targetTask: string;
  queue: string;
  args: string[];
  /** A JSON object, as typed. */
  defaults: string;
  encodings: Partial<Record<NonJsonKind, string>>;
  maxRetries: string;
  backoff: string;
  delaySecs: string;
}

export const emptyDraft = (target = ''): MappingDraft => ({
  target,
  task: '',
  targetTask: '',
  queue: '',
  args: [],
  defaults: '{}',
  encodings: {},
  maxRetries: '',
  backoff: '',
  delaySecs: '',
});

export const draftOf = (m: CallMapping): MappingDraft => ({
  target: m.target,
  task: m.task,
  targetTask: m.targetTask ?? '',
  queue: m.queue ?? '',
  args: [...m.args],
  defaults: JSON.stringify(m.defaults, null, 2),
  encodings: { ...m.encodings },
  maxRetries: m.retry.maxRetries?.toString() ?? '',
  backoff: m.retry.backoff ?? '',
  delaySecs: m.retry.delaySecs?.toString() ?? '',
});

const num = (s: string): number | undefined => (s.trim() === '' ? undefined : Number(s));

/** The mapping the draft says, or the errors by field (the server's field names). */
export function checkDraft(
  source: string,
  d: MappingDraft,
): { ok: true; value: CallMapping } | { ok: false; fields: Record<string, string> } {
  let defaults: unknown;
  try {
    defaults = JSON.parse(d.defaults.trim() || '{}');
  } catch {
    return { ok: false, fields: { defaults: 'not JSON: a JSON object of payload keys and values' } };
  }
  if (defaults === null || typeof defaults !== 'object' || Array.isArray(defaults))
    return { ok: false, fields: { defaults: 'a JSON object of payload keys and values' } };
  const encodings = Object.fromEntries(Object.entries(d.encodings).filter(([, v]) => v));
  const retry = { maxRetries: num(d.maxRetries), backoff: d.backoff || undefined, delaySecs: num(d.delaySecs) };
  const raw = {
    source,
    target: d.target,
    task: d.task,
    ...(d.targetTask.trim() ? { targetTask: d.targetTask } : {}),
    ...(d.queue.trim() ? { queue: d.queue } : {}),
    args: d.args,
    defaults,
    encodings,
    retry: Object.fromEntries(Object.entries(retry).filter(([, v]) => v !== undefined)),
  };
  const r = ZCallMapping.safeParse(raw);
  if (r.success) return { ok: true, value: r.data };
  const fields: Record<string, string> = {};
  for (const i of r.error.issues) fields[i.path.map(String).join('.') || '_'] ??= i.message;
  return { ok: false, fields };
}

/** Each kind JSON cannot hold with its encodings, for the selects. */
export const ENCODING_CHOICES = NON_JSON_KINDS.map((kind) => ({
  kind,
  options: Object.entries(NON_JSON[kind]).map(([value, label]) => ({ value, label })),
}));
