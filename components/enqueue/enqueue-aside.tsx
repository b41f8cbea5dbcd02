'use client';
import { CommandLine } from '@/components/ui/copy-button';
import type { EnqueuePreview } from '@/lib/brokers/schema';
import { TOKEN_PLACEHOLDER } from '@/lib/client/curl';

/** The adapter's preview of the message, the system's own command, and the same as curl. */
export function EnqueueAside({ fields, current, curl }: { fields: Record<string, string>; current?: EnqueuePreview; curl: string }) {
  return (
    <aside className="grid content-start gap-3 text-sm">
      <h2 className="font-semibold">Preview</h2>
      <p className="text-xs text-zinc-500 dark:text-zinc-400">
        Exactly what will be written; the id and enqueue time are set again at write time.
      </p>
      <pre
        data-testid="enqueue-preview"
        className="max-h-96 overflow-auto rounded-md bg-zinc-100 p-3 font-mono text-xs break-all whitespace-pre-wrap dark:bg-zinc-950"
      >
        {Object.keys(fields).length
          ? Object.entries(fields)
              .map(([k, msg]) => `${k}: ${msg}`)
              .join('\n')
          : current
            ? [
                ...(current.headers ?? []).map((h) => `${h.name}: ${h.value}`),
                ...(current.headers?.length ? [''] : []),
                current.payload,
              ].join('\n')
            : '…'}
      </pre>
      {current?.command ? (
        <>
          <h2 className="font-semibold">Command line</h2>
          <CommandLine command={current.command.line} />
          {current.command.missing.length ? (
            <p className="text-xs text-amber-700 dark:text-amber-400">
              The command cannot set {current.command.missing.join(', ')}; it leaves them out.
            </p>
          ) : null}
        </>
      ) : null}
      {curl ? (
        <CommandLine
          command={curl}
          testId="curl-command"
          caption={`The same through the console's API (an API token in ${TOKEN_PLACEHOLDER})`}
          copyLabel="Copy as curl"
        />
      ) : null}
    </aside>
  );
}
