import { Badge } from '@/components/ui/badge';
import type { MessageView, TaskDecl, TypedValue } from '@/lib/brokers/schema';
import { ForeignBanner, HeadersTable } from './foreign-banner';
import { PValueView } from './pvalue-view';
import { visible } from '@/lib/text/visible';
import { DEFAULT_TASK, payloadValue } from './task-words';

const SHOWN_ELSEWHERE = new Set(['task', 'id', 'args', 'kwargs']);

function Args({ args }: { args: TypedValue }) {
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

const H3 = 'mb-1 text-xs font-semibold text-zinc-500 dark:text-zinc-400 uppercase';

/** The arguments as the system shapes them (`TaskDecl.payload`): positional and keyword
 *  arguments, or one value under the system's name for it (SDJ's args, QueueFlow's payload). */
function Arguments({ payload, shape }: { payload: MessageView; shape: TaskDecl['payload'] }) {
  if (shape.shape === 'value') {
    const one = payloadValue(payload);
    return (
      <section data-testid="payload-value">
        <h3 className={H3} title={shape.help}>
          {shape.label}
        </h3>
        {one ? <PValueView value={one.value} /> : <p className="text-sm text-zinc-500 dark:text-zinc-400">None.</p>}
      </section>
    );
  }
  return (
    <>
      <section>
        <h3 className={H3}>Arguments</h3>
        {payload.args ? <Args args={payload.args} /> : <p className="text-sm text-zinc-500 dark:text-zinc-400">No positional arguments.</p>}
      </section>
      <section>
        <h3 className={H3}>Keyword arguments</h3>
        <div data-testid="payload-kwargs">{payload.kwargs ? <PValueView value={payload.kwargs} /> : null}</div>
      </section>
    </>
  );
}

/** Arguments and the other message fields, typed, in the system's words; or the foreign banner. */
export function PayloadView({ payload, shape = DEFAULT_TASK.payload }: { payload: MessageView; shape?: TaskDecl['payload'] }) {
  if (payload.foreign) {
    return (
      <div className="grid gap-3">
        <ForeignBanner m={payload} foreign={payload.foreign} />
        {payload.value ? (
          <section>
            <h3 className={H3}>Decoded value</h3>
            <PValueView value={payload.value} />
          </section>
        ) : null}
      </div>
    );
  }
  const other = payload.fields.filter((f) => !SHOWN_ELSEWHERE.has(f.name));
  return (
    <div className="grid gap-4 text-sm" data-testid="payload-view">
      {payload.flags.length ? (
        <p className="flex flex-wrap gap-1">
          {payload.flags.map((f) => (
            <Badge key={f.code} tone="yellow" title={f.why} testId="payload-flag">
              {f.label}
            </Badge>
          ))}
        </p>
      ) : null}
      <Arguments payload={payload} shape={shape} />
      {payload.headers.length ? (
        <section>
          <HeadersTable m={payload} testId="message-headers" />
        </section>
      ) : null}
      {other.length ? (
        <section>
          <h3 className={H3}>Other fields</h3>
          <table className="table-base">
            <tbody>
              {other.map((f) => (
                <tr key={f.name}>
                  <th className="w-40 font-mono normal-case">
                    {visible(f.name)} {f.ignored ? <Badge title={f.ignored}>ignored by {payload.format ?? 'the system'}</Badge> : null}
                  </th>
                  <td>
                    <PValueView value={f.value} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
    </div>
  );
}
