import type { ResultRecordDto } from '@/lib/brokers/schema';
import { Badge, type Tone } from '@/components/ui/badge';
import { FullTime } from '@/components/ui/time';
import { PValueView } from './pvalue-view';
import { RawView } from './raw-view';
import { visible } from '@/lib/text/visible';

// potatoq's and Celery's statuses, and SDJ's and QueueFlow's finished ones (as results-table.tsx).
const TONE: Record<string, Tone> = {
  SUCCESS: 'green',
  COMPLETED: 'green',
  FAILURE: 'red',
  FAILED: 'red',
  RETRY: 'yellow',
  REVOKED: 'neutral',
  CANCELLED: 'neutral',
};

/** The stored result record of a task (FAILURE/RETRY/REVOKED ...), if any. */
export function ResultView({ result, nameLabel = 'Task' }: { result: ResultRecordDto | null; nameLabel?: string }) {
  if (!result)
    return (
      <p className="text-sm text-zinc-500 dark:text-zinc-400" data-testid="no-result">
        No result record stored for this id.
      </p>
    );
  return (
    <div className="grid gap-3 text-sm" data-testid="result-view">
      <dl className="grid grid-cols-[8rem_1fr] gap-x-4 gap-y-1">
        <dt className="text-zinc-500 dark:text-zinc-400">Status</dt>
        <dd>
          <Badge tone={TONE[result.status] ?? 'blue'} testId="result-status">
            {result.status}
          </Badge>
        </dd>
        {result.name ? (
          <>
            <dt className="text-zinc-500 dark:text-zinc-400">{nameLabel}</dt>
            <dd className="break-all">{visible(result.name)}</dd>
          </>
        ) : null}
        {result.worker ? (
          <>
            <dt className="text-zinc-500 dark:text-zinc-400">Worker</dt>
            <dd className="font-mono text-xs break-all">{visible(result.worker)}</dd>
          </>
        ) : null}
        <dt className="text-zinc-500 dark:text-zinc-400">Done</dt>
        <dd>
          <FullTime iso={result.dateDone} />
        </dd>
        <dt className="text-zinc-500 dark:text-zinc-400">Expires</dt>
        <dd>
          <FullTime iso={result.expiresAt} />
        </dd>
        {result.excType ? (
          <>
            <dt className="text-zinc-500 dark:text-zinc-400">Error</dt>
            <dd className="font-mono text-xs break-all">
              {visible(result.excType)}: {visible(result.excMessage ?? '')}
            </dd>
          </>
        ) : null}
      </dl>
      {result.traceback ? (
        <pre
          className="max-h-96 overflow-auto rounded-md bg-zinc-100 p-3 font-mono text-xs whitespace-pre-wrap dark:bg-zinc-950"
          data-testid="result-traceback"
        >
          {visible(result.traceback)}
        </pre>
      ) : null}
      {result.record ? (
        <details>
          <summary className="cursor-pointer text-xs text-zinc-500 dark:text-zinc-400">Decoded record</summary>
          <div className="mt-2">
            <PValueView value={result.record} />
          </div>
        </details>
      ) : null}
      <details>
        <summary className="cursor-pointer text-xs text-zinc-500 dark:text-zinc-400">Raw record</summary>
        <RawView raw={result.raw} size={new TextEncoder().encode(result.raw).length} truncated={false} testId="result-raw" />
      </details>
    </div>
  );
}
