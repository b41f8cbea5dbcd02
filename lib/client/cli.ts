// Builds the potatoq CLI commands that do what a console action does, for copy-paste.
// Everything user-supplied is single-quoted for POSIX shells, so nothing expands.

/** POSIX shell quoting: safe words stay bare, anything else goes in single quotes. */
export function shellQuote(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export const cliDeadRetry = (ids: string[]): string => `potatoq dead retry ${ids.map(shellQuote).join(' ')}`;
export const cliRevoke = (ids: string[]): string => `potatoq revoke ${ids.map(shellQuote).join(' ')}`;
export const cliPurge = (queue: string): string => `potatoq purge -Q ${shellQuote(queue)} -f`;

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
