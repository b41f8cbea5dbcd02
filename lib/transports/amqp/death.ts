import 'server-only';

// What RabbitMQ itself says about a dead-lettered message (its `x-death` header), for any
// system whose dead letters sit in a RabbitMQ queue. A system's own reason header (potatoq's
// `potatoq-reason`) is read by that system first.

const text = (v: unknown): string | null =>
  typeof v === 'string' ? v : Buffer.isBuffer(v) ? v.toString('utf8') : typeof v === 'number' ? String(v) : null;

function timestampSeconds(v: unknown): number | null {
  if (typeof v === 'number') return v;
  if (v && typeof v === 'object' && typeof (v as { value?: unknown }).value === 'number') return (v as { value: number }).value;
  return null;
}

/** `x-death[0]`'s time in ms, null when there is none. */
export function deathTimeMs(h: Record<string, unknown>): number | null {
  const first = Array.isArray(h['x-death']) ? (h['x-death'] as Array<Record<string, unknown>>)[0] : undefined;
  const t = first ? timestampSeconds(first.time) : null;
  return t === null ? null : t * 1000;
}

/** The broker's `x-death[0].reason` with where and when (the reason itself on the last line);
 *  null when RabbitMQ did not dead-letter it. */
export function deathReason(h: Record<string, unknown>): string | null {
  const first = Array.isArray(h['x-death']) ? (h['x-death'] as Array<Record<string, unknown>>)[0] : undefined;
  if (!first) return null;
  const why = text(first.reason) ?? 'unknown';
  const ms = deathTimeMs(h);
  const when = ms === null ? '' : `, at ${new Date(ms).toISOString()}`;
  // Details first: the summary (last line) stays the reason itself, e.g. `delivery_limit`.
  const detail = `Dead-lettered by RabbitMQ itself (x-death: count ${String(first.count ?? '?')}, queue ${text(first.queue) ?? '?'}${when})`;
  return `${detail}\n${why}`;
}

/** Newest first (died time DESC, unknown times last), then id. */
export function compareDead(a: { id: string; diedAtMs: number | null }, b: { id: string; diedAtMs: number | null }): number {
  const da = a.diedAtMs ?? -Infinity;
  const db = b.diedAtMs ?? -Infinity;
  return da !== db ? db - da : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
