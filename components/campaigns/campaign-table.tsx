import Link from 'next/link';
import { Badge } from '@/components/ui/badge';
import { Empty } from '@/components/ui/states';
import { rollupLine } from '@/lib/campaigns/rollup';
import type { Campaign } from '@/lib/campaigns/schema';
import { FOLLOW_LABEL } from './campaign-words';

/** Campaigns newest first, each with its roll-up in one line. Text only: nothing becomes markup. */
export function CampaignTable({ campaigns }: { campaigns: Campaign[] }) {
  if (!campaigns.length) return <Empty>No campaigns yet: every replay, edited replay, move and bulk job starts one.</Empty>;
  return (
    <table className="w-full text-sm" data-testid="campaign-table">
      <thead className="text-left text-xs text-zinc-500">
        <tr>
          <th className="py-1 pr-3">When</th>
          <th className="py-1 pr-3">Action</th>
          <th className="py-1 pr-3">Broker</th>
          <th className="py-1 pr-3">Who · why</th>
          <th className="py-1 pr-3">Tasks</th>
          <th className="py-1">Outcome so far</th>
        </tr>
      </thead>
      <tbody>
        {campaigns.map((c) => (
          <tr key={c.id} className="border-t border-zinc-200 align-top dark:border-zinc-800" data-testid="campaign-row">
            <td className="py-1.5 pr-3 whitespace-nowrap">
              <Link className="link" href={`/campaigns/${encodeURIComponent(c.id)}`} data-testid="campaign-link">
                {c.createdAt.replace('T', ' ').slice(0, 19)}
              </Link>
            </td>
            <td className="py-1.5 pr-3">{c.action}</td>
            <td className="py-1.5 pr-3">{c.broker}</td>
            <td className="py-1.5 pr-3 break-words">
              {c.who}
              {c.reason ? ` · ${c.reason}` : ''}
            </td>
            <td className="py-1.5 pr-3">{c.scope.count.toLocaleString('en-US')}</td>
            <td className="py-1.5">
              <span data-testid="campaign-rollup">{rollupLine(c.rollup, c.scope.firstRun === true)}</span>{' '}
              <Badge tone={c.follow.state === 'following' ? 'blue' : c.follow.state === 'off' ? 'yellow' : 'neutral'}>
                {FOLLOW_LABEL[c.follow.state]}
              </Badge>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
