'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ErrorBox } from '@/components/ui/states';
import { apiUrl, describeError, getJson } from '@/lib/client/api';
import type { CampaignItems, ItemQuery } from '@/lib/campaigns/schema';
import { FATE_LABEL, FATE_TONE, errorWord } from './campaign-words';

const PAGE = 100;

/** The drill-down: each task with its fate, in replay order, `fate` filtered, a page at a time. */
export function CampaignItemList({ id, broker, fate, live }: { id: string; broker: string; fate: ItemQuery['fate']; live: boolean }) {
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
                <Link className="link" href={`${b}/${i.fate === 'dead' ? 'dead' : 'jobs'}/${encodeURIComponent(i.followed ?? i.id)}`}>
                  {i.id}
                </Link>
                {i.followed ? <span className="block text-zinc-500">replayed as {i.followed}</span> : null}
              </td>
              <td className="py-1.5 pr-3">
                <Badge tone={FATE_TONE[i.fate]} testId="campaign-item-fate">
                  {FATE_LABEL[i.fate]}
                </Badge>
              </td>
              <td className="py-1.5 pr-3 text-xs">
                {errorWord(i)}
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
