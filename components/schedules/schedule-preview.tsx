'use client';
import type { SchedulePreview } from '@/lib/brokers/schedule';
import { formatUtc } from '@/lib/text/format';

/** The exact calls a create or edit makes, in order, with the expression in words and its next firings. */
export function SchedulePreviewView({ preview }: { preview: SchedulePreview }) {
  return (
    <div className="grid gap-2 rounded-md border border-zinc-200 p-3 dark:border-zinc-700" data-testid="schedule-preview-box">
      <p>
        <strong data-testid="schedule-preview-words">{preview.words}</strong>; next:{' '}
        <span className="font-mono text-xs">{preview.next.map(formatUtc).join(' · ')}</span>
      </p>
      {preview.notes.map((n) => (
        <p key={n} className="text-amber-700 dark:text-amber-400" data-testid="schedule-preview-note">
          {n}
        </p>
      ))}
      {preview.calls.map((c, i) => (
        <pre key={i} className="overflow-x-auto rounded bg-zinc-100 p-2 text-xs dark:bg-zinc-800" data-testid="schedule-preview-call">
          {`${c.method} ${c.path}${c.body ? `\n${c.body}` : ''}`}
        </pre>
      ))}
    </div>
  );
}
