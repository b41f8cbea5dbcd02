// What a purge will remove, in the dialog's words: as the broker's adapter declares its purge
// (RabbitMQ's takes only ready messages) and with the counts the overview has right now.
import { countOf, type PurgeDecl, type QueueStats } from '@/lib/brokers/schema';
import { formatCount } from '@/lib/text/format';

export interface PurgeText {
  /** What goes, e.g. "every waiting task (ready and scheduled)". */
  what: string;
  /** How many right now, e.g. "12 ready and 3 scheduled right now"; null while unknown. */
  count: string | null;
  /** What stays. */
  stays: string;
}

const GENERIC: PurgeDecl = { does: '', what: 'every waiting task of the queue', counts: [], stays: 'Running tasks and dead letters stay.' };

export function purgeText(decl: PurgeDecl | undefined, q: QueueStats | undefined): PurgeText {
  const d = decl ?? GENERIC;
  const counts = d.counts.map((k) => [k, q ? countOf(q, k) : null] as const);
  const known = q && decl && counts.length > 0 && counts.every(([, n]) => n !== null);
  const parts = counts.map(([k, n]) => `${formatCount(n, q?.capped?.[k])} ${k}`);
  const listed = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : parts[0];
  return { what: d.what, count: known ? `${listed} right now` : null, stays: d.stays };
}
