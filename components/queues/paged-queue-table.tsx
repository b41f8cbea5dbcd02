'use client';
import { useState } from 'react';
import { QueueTable } from '@/components/queues/queue-table';
import { Button } from '@/components/ui/button';
import { ErrorBox } from '@/components/ui/states';
import { QUEUE_PAGE_SIZE } from '@/lib/brokers/queue-page';
import type { BrokerOverview, WorkerInfo } from '@/lib/brokers/schema';
import { describeError } from '@/lib/client/api';
import { useQueuePage } from '@/lib/client/hooks';

/**
 * The queue table of a broker. Up to one page of queues it is the overview's own table; past
 * that, a search by name and pages the server cuts (GET /queues?search=&offset=&limit=), so the
 * browser draws one page of a broker with thousands of queues.
 */
export function PagedQueueTable({ overview, workers }: { overview: BrokerOverview; workers?: WorkerInfo[] }) {
  const [search, setSearch] = useState('');
  const [offset, setOffset] = useState(0);
  const paged = overview.queues.length > QUEUE_PAGE_SIZE;
  const page = useQueuePage(overview.id, search.trim(), offset, paged);
  if (!paged) return <QueueTable overview={overview} workers={workers} />;
  const shown = page.data;
  const info = shown?.queuePage;
  const matched = info?.matched ?? 0;
  const last = Math.min(offset + QUEUE_PAGE_SIZE, matched);
  return (
    <div data-testid="queue-pages">
      <div className="flex flex-wrap items-center gap-3 border-b border-zinc-100 px-4 py-2 text-sm dark:border-zinc-800">
        <label className="flex items-center gap-2">
          <span className="text-zinc-600 dark:text-zinc-400">Search queues</span>
          <input
            className="input w-56"
            type="search"
            maxLength={200}
            value={search}
            data-testid="queue-search"
            placeholder="part of a queue name"
            onChange={(e) => {
              setSearch(e.target.value);
              setOffset(0);
            }}
          />
        </label>
        <span className="text-zinc-600 dark:text-zinc-400" data-testid="queue-page-info" data-matched={matched}>
          {info
            ? matched
              ? `${(offset + 1).toLocaleString()}–${last.toLocaleString()} of ${matched.toLocaleString()}${info.search ? ` matching of ${info.total.toLocaleString()}` : ''} queues`
              : `No queue name holds “${info.search ?? ''}” (${info.total.toLocaleString()} queues)`
            : `${overview.queues.length.toLocaleString()} queues`}
        </span>
        <span className="ml-auto flex gap-2">
          <Button
            size="sm"
            disabled={offset === 0}
            onClick={() => setOffset(Math.max(0, offset - QUEUE_PAGE_SIZE))}
            data-testid="queue-prev"
          >
            Previous
          </Button>
          <Button
            size="sm"
            disabled={!info || last >= matched}
            onClick={() => setOffset(offset + QUEUE_PAGE_SIZE)}
            data-testid="queue-next"
          >
            Next
          </Button>
        </span>
      </div>
      {page.error ? (
        <div className="p-4">
          <ErrorBox {...describeError(page.error)} />
        </div>
      ) : null}
      {shown && matched ? <QueueTable overview={shown} workers={workers} /> : null}
    </div>
  );
}
