import 'server-only';
import type { EnqueueRequest } from '@/lib/brokers/schema';
import { parseCeleryEnqueue } from './enqueue-fields';
import { shellQuote } from '@/lib/text/shell';

/** `celery call` for the same task; it has no priority or headers option. */
export function celeryCall(request: EnqueueRequest): { line: string; missing: string[] } {
  const req = parseCeleryEnqueue(request);
  const parts = ['celery', '-A', '<app>', 'call', shellQuote(req.task)];
  if (req.args.trim() && req.args.trim() !== '[]') parts.push('--args', shellQuote(req.args.trim()));
  if (req.kwargs.trim() && req.kwargs.trim() !== '{}') parts.push('--kwargs', shellQuote(req.kwargs.trim()));
  parts.push('--queue', shellQuote(req.queue));
  if (req.countdown !== undefined && req.countdown > 0) parts.push('--countdown', String(req.countdown));
  if (req.eta !== undefined) parts.push('--eta', shellQuote(req.eta));
  if (req.expires !== undefined) parts.push('--expires', shellQuote(req.expires));
  const missing = [req.priority !== 0 ? 'priority' : '', req.headers.trim() && req.headers.trim() !== '{}' ? 'headers' : ''].filter(
    Boolean,
  );
  return { line: parts.join(' '), missing };
}
