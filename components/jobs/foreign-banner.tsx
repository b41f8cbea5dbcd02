import type { ForeignInfo, MessageView } from '@/lib/brokers/schema';
import { PValueView } from './pvalue-view';
import { visible } from '@/lib/text/visible';

/** A message's headers or envelope (`MessageView.headers`), read-only, under its title. */
export function HeadersTable({ m, testId }: { m: MessageView; testId: string }) {
  return (
    <table className="table-base mt-2" data-testid={testId}>
      <caption className="text-left text-xs font-semibold text-zinc-500 dark:text-zinc-400">{m.headersTitle}</caption>
      <tbody>
        {m.headers.map((h) => (
          <tr key={h.name}>
            <th className="w-32">{visible(h.name)}</th>
            {h.value ? (
              <td>
                <PValueView value={h.value} />
              </td>
            ) : (
              <td className="font-mono text-xs break-all">{visible(h.text ?? '')}</td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Shown instead of arguments when the broker's workers cannot run this message. Read-only. */
export function ForeignBanner({ m, foreign }: { m: MessageView; foreign: ForeignInfo }) {
  return (
    <div
      role="alert"
      data-testid="foreign-banner"
      data-kind={foreign.code}
      className="grid gap-2 rounded-lg border border-amber-400 bg-amber-50 p-4 text-sm dark:border-amber-800 dark:bg-amber-950/40"
    >
      <p className="font-semibold">{foreign.title}</p>
      <p>
        <span className="text-zinc-600 dark:text-zinc-400">{foreign.reasonBy} says: </span>
        <span className="font-mono text-xs" data-testid="foreign-reason">
          {visible(foreign.reason)}
        </span>
      </p>
      <p data-testid="foreign-advice">{foreign.advice}</p>
      {foreign.crashesWorkers ? (
        <p className="font-semibold text-red-700 dark:text-red-400" data-testid="foreign-crash-warning">
          ⚠ On this broker, a worker that claims this message will crash its worker slot. Remove it rather than replaying it.
        </p>
      ) : null}
      {m.headersTitle ? <HeadersTable m={m} testId="celery-info" /> : null}
    </div>
  );
}
