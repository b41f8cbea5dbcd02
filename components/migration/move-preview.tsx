'use client';
import { useQuery } from '@tanstack/react-query';
import { ErrorBox, Loading } from '@/components/ui/states';
import type { MovePreviewItem } from '@/lib/brokers/mapping/schema';
import { brokerPath, describeError, postJson } from '@/lib/client/api';

const MAX = 50;

/** The exact jobs a move through call mappings would create, beside each letter's call, with
 *  what cannot be carried and each problem under its field. Text only: payloads never markup. */
export function MovePreview({
  brokerId,
  to,
  ids,
  from = 'dead',
}: {
  brokerId: string;
  to: string;
  ids: string[];
  from?: 'dead' | 'waiting';
}) {
  const shown = ids.slice(0, MAX);
  const q = useQuery({
    queryKey: ['broker', brokerId, 'move-preview', to, from, shown],
    queryFn: ({ signal }) =>
      postJson<{ keyed: string | null; items: MovePreviewItem[] }>(
        brokerPath(brokerId, '/move-preview'),
        { to, ids: shown, ...(from === 'waiting' ? { from } : {}) },
        signal,
      ),
  });
  if (q.isPending) return <Loading label="Converting the letters…" />;
  if (q.error) return <ErrorBox {...describeError(q.error)} />;
  const bad = q.data.items.filter((i) => Object.keys(i.problems).length).length;
  return (
    <div className="grid gap-2" data-testid="move-preview">
      <p>
        {q.data.items.length - bad} of {q.data.items.length} can move{ids.length > MAX ? ` (the first ${MAX} shown)` : ''}
        {bad ? `; ${bad} would be refused, nothing moved for ${bad === 1 ? 'it' : 'them'}` : ''}.{q.data.keyed ? ` ${q.data.keyed}.` : ''}
      </p>
      <ul className="grid max-h-72 gap-2 overflow-auto text-xs">
        {q.data.items.map((i) => (
          <li key={i.id} className="rounded border border-zinc-200 p-2 dark:border-zinc-800" data-testid="move-preview-item">
            <div className="font-mono break-all">{i.id}</div>
            {i.source ? (
              <div className="font-mono break-all">
                {i.source.task}({i.source.args}, **{i.source.kwargs}) on {i.source.queue}
              </div>
            ) : null}
            {i.letter ? (
              <div className="font-mono break-all">
                {i.letter.task} on {i.letter.queue}: {JSON.stringify(i.letter.payload)}
              </div>
            ) : null}
            {i.call ? (
              <div className="font-mono break-all" data-testid="move-preview-call">
                → {i.call.task}({i.call.args}, **{i.call.kwargs}) on {i.call.queue} · task id {i.call.id}
                {i.call.priority !== null ? ` · priority ${i.call.priority}` : ''}
              </div>
            ) : null}
            {i.job ? (
              <div className="font-mono break-all" data-testid="move-preview-job">
                → {i.job.task} on {i.job.queue}: {JSON.stringify(i.job.payload)} · key {i.job.key}
                {i.job.runAt ? ` · run at ${i.job.runAt}` : ''}
                {i.job.retry.maxRetries !== undefined ? ` · max retries ${i.job.retry.maxRetries}` : ''}
              </div>
            ) : null}
            {Object.entries(i.problems).map(([at, why]) => (
              <div key={at} className="text-red-600" data-testid="move-preview-problem">
                {at}: {why}
              </div>
            ))}
            {[...i.notes, ...i.notCarried.map((x) => `not carried: ${x}`)].map((n) => (
              <div key={n} className="text-zinc-500">
                {n}
              </div>
            ))}
          </li>
        ))}
      </ul>
    </div>
  );
}
