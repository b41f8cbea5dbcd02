// TEMPORARY shim until `@/lib/potatoq` (the codec helper's module) lands; then this file
// becomes a re-export and is deleted. Deliberately minimal.
import type { DecodedPayload, PValue } from '@/lib/potatoq/types';
import type { PayloadPreview } from '../schema';

export const parseJson = (text: string): unknown => JSON.parse(text);
export function toPValue(v: unknown): PValue {
  if (v === null) return { t: 'null' };
  if (typeof v === 'boolean') return { t: 'bool', v };
  if (typeof v === 'number') return Number.isInteger(v) ? { t: 'int', v: String(v) } : { t: 'float', v: String(v) };
  if (typeof v === 'string') return { t: 'str', v };
  if (Array.isArray(v)) return { t: 'list', items: v.map(toPValue) };
  return { t: 'dict', entries: Object.entries(v as object).map(([k, x]) => [k, toPValue(x)]) };
}
export function decodePayload(raw: string): DecodedPayload {
  let v: Record<string, unknown>;
  try {
    v = JSON.parse(raw) as Record<string, unknown>;
    if (!v || typeof v !== 'object' || Array.isArray(v) || !('task' in v) || !('id' in v)) throw new Error('x');
  } catch {
    const celery = raw.startsWith('[');
    return { kind: 'foreign', foreign: 'not-object', reason: celery ? 'This is a Celery (protocol 2) message' : 'Not a potatoq message', advice: '', crashesWorkers: true, task: null, id: null, celery: null, value: null };
  }
  return {
    kind: 'potatoq', task: String(v.task), id: String(v.id), v: String(v.v ?? 1), queue: (v.queue as string) ?? null,
    priority: v.priority === undefined ? null : String(v.priority), eta: (v.eta as number) ?? null, expires: (v.expires as number) ?? null,
    enqueuedAt: (v.enqueued_at as number) ?? null, retries: null, args: toPValue(v.args ?? []), kwargs: toPValue(v.kwargs ?? {}),
    fields: Object.entries(v).map(([k, x]) => [k, toPValue(x)]), ignoredFields: [], flags: [],
  };
}
export const previewPayload = (d: DecodedPayload, max: number): PayloadPreview =>
  d.kind === 'potatoq' ? { kind: 'potatoq', text: `${d.task}`.slice(0, max) } : { kind: 'foreign', foreign: d.foreign, text: d.reason.slice(0, max) };
export function reencodeWithoutEta(raw: string): { ok: true; json: string } | { ok: false; reason: string } {
  const d = decodePayload(raw);
  if (d.kind !== 'potatoq') return { ok: false, reason: d.reason };
  const v = JSON.parse(raw) as Record<string, unknown>;
  delete v.eta;
  return { ok: true, json: JSON.stringify(v) };
}
const lastLine = (r: string) => r.trim().split(/\r?\n/).pop() ?? '';
export const reasonSummaryFull = (r: string | null) => lastLine(r ?? '');
export const reasonSummary = (r: string | null) => {
  const l = reasonSummaryFull(r);
  return l.length <= 70 ? l : `${l.slice(0, 69)}…`;
};
import { randomUUID } from 'node:crypto';
import { ConsoleError } from '../errors';
import type { EnqueueRequest } from '../schema';
export function buildMessage(req: EnqueueRequest, now = Date.now() / 1000): { id: string; json: string; eta: number | null } {
  const parse = (field: string, text: string, want: 'list' | 'object') => {
    let v: unknown;
    try { v = JSON.parse(text); } catch { throw new ConsoleError('InvalidInput', `${field}: not JSON`, { [field]: 'not valid JSON' }); }
    if (want === 'list' ? !Array.isArray(v) : !v || typeof v !== 'object' || Array.isArray(v)) throw new ConsoleError('InvalidInput', `${field}: must be a ${want}`, { [field]: `must be a JSON ${want}` });
    return v;
  };
  const args = parse('args', req.args, 'list') as unknown[];
  const kwargs = parse('kwargs', req.kwargs, 'object') as object;
  const headers = parse('headers', req.headers, 'object') as object;
  const id = randomUUID();
  const eta = req.countdown !== undefined && req.countdown > 0 ? now + req.countdown : req.eta ? Date.parse(req.eta) / 1000 : null;
  const m: Record<string, unknown> = { task: req.task };
  if (args.length) m.args = args;
  if (Object.keys(kwargs).length) m.kwargs = kwargs;
  m.id = id; m.queue = req.queue;
  if (req.priority) m.priority = req.priority;
  if (eta !== null) m.eta = eta;
  m.root_id = id;
  if (Object.keys(headers).length) m.headers = headers;
  m.enqueued_at = now; m.v = 1;
  return { id, json: JSON.stringify(m), eta };
}
