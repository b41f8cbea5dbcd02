import { Badge } from '@/components/ui/badge';
import type { DecodedPayload, PValue } from '@/lib/potatoq/types';
import { ForeignBanner } from './foreign-banner';
import { PValueView } from './pvalue-view';

const SHOWN_ELSEWHERE = new Set(['task', 'id', 'args', 'kwargs']);
const FLAG = { 'unknown-tag': 'unknown tag', 'malformed-tag': 'malformed tag', 'legacy-tag': 'written by an older potatoq' } as const;

function Args({ args }: { args: PValue }) {
  if (args.t !== 'list') return <PValueView value={args} />;
  if (args.items.length === 0) return <p className="text-sm text-zinc-500 dark:text-zinc-400">No positional arguments.</p>;
  return (
    <ol className="grid gap-1" data-testid="payload-args">
      {args.items.map((a, i) => (
        <li key={i} className="flex gap-3">
          <span className="w-6 text-right font-mono text-xs text-zinc-400">{i}</span>
          <PValueView value={a} />
        </li>
      ))}
    </ol>
  );
}

/** Arguments, keyword arguments and the other message fields, typed; or the foreign banner. */
export function PayloadView({ payload }: { payload: DecodedPayload }) {
  if (payload.kind === 'foreign') {
    return (
      <div className="grid gap-3">
        <ForeignBanner m={payload} />
        {payload.value ? (
          <section>
            <h3 className="mb-1 text-xs font-semibold text-zinc-500 dark:text-zinc-400 uppercase">Decoded value</h3>
            <PValueView value={payload.value} />
          </section>
        ) : null}
      </div>
    );
  }
  const other = payload.fields.filter(([k]) => !SHOWN_ELSEWHERE.has(k));
  return (
    <div className="grid gap-4 text-sm" data-testid="payload-view">
      {payload.flags.length ? (
        <p className="flex flex-wrap gap-1">
          {[...new Set(payload.flags)].map((f) => (
            <Badge key={f} tone="yellow" testId="payload-flag">{FLAG[f]}</Badge>
          ))}
        </p>
      ) : null}
      <section>
        <h3 className="mb-1 text-xs font-semibold text-zinc-500 dark:text-zinc-400 uppercase">Arguments</h3>
        <Args args={payload.args} />
      </section>
      <section>
        <h3 className="mb-1 text-xs font-semibold text-zinc-500 dark:text-zinc-400 uppercase">Keyword arguments</h3>
        <div data-testid="payload-kwargs"><PValueView value={payload.kwargs} /></div>
      </section>
      <section>
        <h3 className="mb-1 text-xs font-semibold text-zinc-500 dark:text-zinc-400 uppercase">Message fields</h3>
        <table className="table-base">
          <tbody>
            {other.map(([k, v]) => (
              <tr key={k}>
                <th className="w-40 font-mono normal-case">
                  {k} {payload.ignoredFields.includes(k) ? <Badge title="potatoq 26.1a8 drops this field">ignored by potatoq</Badge> : null}
                </th>
                <td><PValueView value={v} /></td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}
