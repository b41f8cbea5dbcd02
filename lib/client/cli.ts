// Builds the command lines that do what a console action does, for copy-paste, from the
// command the broker's adapter declares for the action (`potatoq dead retry {ids}`); the enqueue
// form's command comes with the adapter's preview. Everything user-supplied is single-quoted for POSIX
// shells, so nothing expands.

import { shellQuote } from '@/lib/text/shell';

export { shellQuote };

/** A declared command with `{ids}` and `{queue}` filled in, quoted; null when none is declared. */
export function fillCommand(template: string | undefined, values: { ids?: string[]; queue?: string }): string | null {
  if (!template) return null;
  return template.replace(/\{(ids|queue)\}/g, (_, k: 'ids' | 'queue') =>
    k === 'ids' ? (values.ids ?? []).map(shellQuote).join(' ') : shellQuote(values.queue ?? ''),
  );
}
