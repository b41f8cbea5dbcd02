// Builds the command lines that do what a console action does, for copy-paste: from the
// command the broker's adapter declares for the action (`potatoq dead retry {ids}`), and
// potatoq's `call` for the enqueue form. Everything user-supplied is single-quoted for POSIX
// shells, so nothing expands.

/** POSIX shell quoting: safe words stay bare, anything else goes in single quotes. */
export function shellQuote(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A declared command with `{ids}` and `{queue}` filled in, quoted; null when none is declared. */
export function fillCommand(template: string | undefined, values: { ids?: string[]; queue?: string }): string | null {
  if (!template) return null;
  return template.replace(/\{(ids|queue)\}/g, (_, k: 'ids' | 'queue') =>
    k === 'ids' ? (values.ids ?? []).map(shellQuote).join(' ') : shellQuote(values.queue ?? ''),
  );
}

export interface CallSpec {
  task: string;
  queue?: string;
  args?: string;
  kwargs?: string;
  countdown?: number | string;
}

/**
 * `potatoq call` takes only args, kwargs, countdown and queue; the caller shows a note when the
 * form sets more (priority, eta, expires, headers) than the CLI can express.
 */
export function cliCall(spec: CallSpec): string {
  const parts = ['potatoq', 'call', shellQuote(spec.task)];
  const args = spec.args?.trim();
  const kwargs = spec.kwargs?.trim();
  if (args && args !== '[]') parts.push('-a', shellQuote(args));
  if (kwargs && kwargs !== '{}') parts.push('-k', shellQuote(kwargs));
  if (spec.queue) parts.push('-Q', shellQuote(spec.queue));
  if (spec.countdown !== undefined && spec.countdown !== '' && Number(spec.countdown) > 0) {
    parts.push('--countdown', String(Number(spec.countdown)));
  }
  return parts.join(' ');
}
