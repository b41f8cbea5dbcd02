'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ErrorBox } from '@/components/ui/states';
import { apiUrl, describeError, getJson } from '@/lib/client/api';
import type { CampaignItem, CampaignItems, ItemQuery } from '@/lib/campaigns/schema';
import { FATE_TONE, errorWord, fateLabel } from './campaign-words';

const PAGE = 100;

interface Props {
  id: string;
  broker: string;
  /** A move's campaign: the broker the tasks came from (each item says its id there). */
  from?: string | undefined;
  /** The tasks had not run before (moved waiting tasks): a dead one "failed". */
  firstRun?: boolean;
  fate: ItemQuery['fate'];
  live: boolean;
}

/** A task's page, or its dead letter's (under the letter's own id where the broker gave it one). */
const itemHref = (b: string, i: CampaignItem) =>
  i.fate === 'dead'
    ? `${b}/dead/${encodeURIComponent(i.letter ?? i.followed ?? i.id)}`
    : `${b}/jobs/${encodeURIComponent(i.followed ?? i.id)}`;

/** The drill-down: each task with its fate, in replay order, `fate` filtered, a page at a time. */
export function CampaignItemList({ id, broker, from, firstRun = false, fate, live }: Props) {
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const q = useQuery({
    queryKey: ['campaign', id, 'items', fate, cursor ?? ''],
    queryFn: ({ signal }) =>
      getJson<CampaignItems>(apiUrl(`/api/campaigns/${encodeURIComponent(id)}/items`, { fate, cursor, limit: PAGE }), signal),
    refetchInterval: live ? 3000 : false,
  });
  if (q.error) return <ErrorBox {...describeError(q.error)} />;
  const b = `/brokers/${encodeURIComponent(broker)}`;
  return (
    <div className="grid gap-2">
      <table className="w-full text-sm" data-testid="campaign-items">
        <thead className="text-left text-xs text-zinc-500">
          <tr>
            <th className="py-1 pr-3">Task</th>
            <th className="py-1 pr-3">Fate</th>
            <th className="py-1 pr-3">Error</th>
            <th className="py-1">What the system says</th>
          </tr>
        </thead>
        <tbody>
          {(q.data?.items ?? []).map((i) => (
            <tr
              key={i.id}
              className="border-t border-zinc-200 align-top dark:border-zinc-800"
              data-testid="campaign-item"
              data-fate={i.fate}
            >
              <td className="py-1.5 pr-3 font-mono text-xs break-all">
                <Link className="link" href={itemHref(b, i)}>
                  {i.id}
                </Link>
                {i.followed ? <span className="block text-zinc-500">replayed as {i.followed}</span> : null}
                {from && i.from ? (
                  <span className="block text-zinc-500" data-testid="campaign-item-from">
                    from {from}/{i.from}
                  </span>
                ) : null}
              </td>
              <td className="py-1.5 pr-3">
                <Badge tone={FATE_TONE[i.fate]} testId="campaign-item-fate">
                  {fateLabel(i.fate, firstRun)}
                </Badge>
              </td>
              <td className="py-1.5 pr-3 text-xs">
                {errorWord(i, firstRun)}
                {i.fingerprint ? (
                  <Link className="link block font-mono" href={`${b}/dead?group=${encodeURIComponent(i.fingerprint)}`}>
                    {i.fingerprint}
                  </Link>
                ) : null}
              </td>
              <td className="py-1.5 text-xs break-words">{i.detail}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="flex gap-2">
        {cursors.length ? (
          <Button size="sm" onClick={() => setCursors(cursors.slice(0, -1))}>
            Previous
          </Button>
        ) : null}
        {q.data?.nextCursor ? (
          <Button size="sm" onClick={() => setCursors([...cursors, q.data.nextCursor!])} data-testid="campaign-items-next">
            Next {PAGE}
          </Button>
        ) : null}
      </div>
    </div>
  );
}
