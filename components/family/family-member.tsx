import Link from 'next/link';
import { Badge, type Tone } from '@/components/ui/badge';
import type { FamilyMember, FamilyStatus } from '@/lib/brokers/family/schema';
import { visible } from '@/lib/text/visible';

const TONE: Record<FamilyStatus, Tone> = {
  waiting: 'blue',
  running: 'purple',
  succeeded: 'green',
  failed: 'red',
  dead: 'red',
  revoked: 'yellow',
  unknown: 'neutral',
};

/** Where a member opens: its dead letter, else its task page (which shows a stored result). */
export function memberHref(brokerId: string, m: Pick<FamilyMember, 'id' | 'link'>): string {
  const b = encodeURIComponent(brokerId);
  return m.link === 'dead' ? `/brokers/${b}/dead/${encodeURIComponent(m.id)}` : `/brokers/${b}/jobs/${encodeURIComponent(m.id)}`;
}

const short = (id: string) => (id.length > 13 ? `${id.slice(0, 8)}…${id.slice(-4)}` : id);

/** One member: its task name, id (text, never markup) and state, linked to its page. */
export function FamilyMemberRow({ brokerId, m, current }: { brokerId: string; m: FamilyMember; current?: boolean }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5" data-testid="family-member" data-id={m.id} data-status={m.status}>
      {current ? (
        <span className="font-mono text-xs font-semibold" title={m.id}>
          {visible(short(m.id))} (this one)
        </span>
      ) : (
        <Link className="link font-mono text-xs" href={memberHref(brokerId, m)} title={m.id}>
          {visible(short(m.id))}
        </Link>
      )}
      <span className="text-xs">
        {m.task === null ? <em className="text-zinc-500 dark:text-zinc-400">name not known</em> : visible(m.task)}
      </span>
      <Badge tone={TONE[m.status]} title={m.state ?? undefined}>
        {m.status === 'unknown' ? 'state not known' : m.status}
      </Badge>
    </span>
  );
}
