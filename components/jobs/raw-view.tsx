import { formatBytes } from '@/lib/text/format';
import { visible } from '@/lib/text/visible';

/** The stored text as is, in a <pre> (never parsed as HTML). */
export function RawView({ raw, size, truncated, testId = 'raw-json' }: { raw: string; size: number; truncated: boolean; testId?: string }) {
  const shown = new TextEncoder().encode(raw).length;
  return (
    <div className="grid gap-1">
      {truncated ? (
        <p className="text-xs text-amber-700 dark:text-amber-400" data-testid={`${testId}-truncated`}>
          Showing first {shown.toLocaleString('en-US')} of {size.toLocaleString('en-US')} bytes ({formatBytes(size)}).
        </p>
      ) : null}
      <pre
        data-testid={testId}
        className="max-h-96 overflow-auto rounded-md bg-zinc-100 p-3 font-mono text-xs break-all whitespace-pre-wrap dark:bg-zinc-950"
      >
        {visible(raw)}
      </pre>
    </div>
  );
}
