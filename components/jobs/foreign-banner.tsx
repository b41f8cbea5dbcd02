import type { ForeignMessage } from '@/lib/potatoq/types';
import { PValueView } from './pvalue-view';

const KIND: Record<ForeignMessage['foreign'], string> = {
  'celery-v2': 'Celery protocol 2 message',
  'kombu-envelope': 'Celery/kombu envelope',
  'no-id': 'message without an id',
  'not-object': 'not a JSON object with task and id',
  'newer-protocol': 'newer potatoq protocol',
  'invalid-json': 'invalid JSON',
  'invalid-utf8': 'invalid UTF-8',
  'tag-error': "a tagged value potatoq's decoder fails on",
};

/** Shown instead of arguments when potatoq cannot run this payload. Read-only. */
export function ForeignBanner({ m }: { m: ForeignMessage }) {
  const c = m.celery;
  const rows: Array<[string, string | null]> = c
    ? [
        ['task', c.task],
        ['id', c.id],
        ['eta', c.eta],
        ['expires', c.expires],
        ['retries', c.retries],
        ['root_id', c.rootId],
        ['parent_id', c.parentId],
        ['group', c.groupId],
        ['argsrepr', c.argsrepr],
        ['kwargsrepr', c.kwargsrepr],
      ]
    : [];
  return (
    <div role="alert" data-testid="foreign-banner" data-kind={m.foreign} className="grid gap-2 rounded-lg border border-amber-400 bg-amber-50 p-4 text-sm dark:border-amber-800 dark:bg-amber-950/40">
      <p className="font-semibold">Not a potatoq message: {KIND[m.foreign]}</p>
      <p>
        <span className="text-zinc-600 dark:text-zinc-400">potatoq says: </span>
        <span className="font-mono text-xs" data-testid="foreign-reason">{m.reason}</span>
      </p>
      <p data-testid="foreign-advice">{m.advice}</p>
      {m.crashesWorkers ? (
        <p className="font-semibold text-red-700 dark:text-red-400" data-testid="foreign-crash-warning">
          ⚠ On this broker, a worker that claims this message will crash its worker slot. Remove it rather than replaying it.
        </p>
      ) : null}
      {c ? (
        <table className="table-base mt-2" data-testid="celery-info">
          <caption className="text-left text-xs font-semibold text-zinc-500 dark:text-zinc-400">Celery headers (read-only)</caption>
          <tbody>
            {rows
              .filter(([, v]) => v !== null)
              .map(([k, v]) => (
                <tr key={k}>
                  <th className="w-32">{k}</th>
                  <td className="font-mono text-xs break-all">{v}</td>
                </tr>
              ))}
            {(['args', 'kwargs', 'callbacks', 'errbacks', 'chain', 'chord'] as const).map((k) =>
              c[k] ? (
                <tr key={k}>
                  <th className="w-32">{k}</th>
                  <td>
                    <PValueView value={c[k]} />
                  </td>
                </tr>
              ) : null,
            )}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
