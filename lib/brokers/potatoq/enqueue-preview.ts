import 'server-only';
import type { EnqueuePreview, EnqueueRequest } from '@/lib/brokers/schema';
import { shellQuote } from '@/lib/text/shell';
import { parsePotatoqEnqueue, type PotatoqEnqueue } from './enqueue-fields';
import { buildFromFields } from './records';

/**
 * `potatoq call` for the same task: it takes args, kwargs, countdown and queue only, so the
 * fields the request sets beyond those are named in `missing` (the form says the command leaves
 * them out).
 */
export function potatoqCall(req: PotatoqEnqueue): { line: string; missing: string[] } {
  const parts = ['potatoq', 'call', shellQuote(req.task)];
  const args = req.args.trim();
  const kwargs = req.kwargs.trim();
  if (args && args !== '[]') parts.push('-a', shellQuote(args));
  if (kwargs && kwargs !== '{}') parts.push('-k', shellQuote(kwargs));
  if (req.queue) parts.push('-Q', shellQuote(req.queue));
  if (req.countdown !== undefined && req.countdown > 0) parts.push('--countdown', String(req.countdown));
  const headers = req.headers.trim();
  const missing = [
    req.priority !== 0 ? 'priority' : '',
    req.eta !== undefined ? 'eta' : '',
    req.expires !== undefined ? 'expires' : '',
    headers && headers !== '{}' ? 'headers' : '',
  ].filter(Boolean);
  return { line: parts.join(' '), missing };
}

/** The message every potatoq store's `enqueue` writes for this request, built and not written. */
export function previewPotatoqEnqueue(brokerId: string, req: EnqueueRequest, now = Date.now() / 1000): EnqueuePreview {
  const p = parsePotatoqEnqueue(req);
  const m = buildFromFields(p, now);
  return {
    brokerId,
    id: m.id,
    queue: m.queue,
    task: m.task,
    state: m.eta !== null ? 'scheduled' : 'ready',
    payload: m.json,
    preview: true,
    command: potatoqCall(p),
  };
}
