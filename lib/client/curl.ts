// "Copy as curl": the API call that does what an action dialog does, for scripts and runbooks.
// The token is always the shell variable $POTATOQ_CONSOLE_TOKEN, never a real secret (the
// browser holds none: pages are signed in by cookie); everything else is single-quoted.
import { shellQuote } from './cli';

export type CurlAction = 'replay' | 'discard' | 'revoke' | 'convert' | 'purge';

export const TOKEN_PLACEHOLDER = '$POTATOQ_CONSOLE_TOKEN';

const PATHS: Record<Exclude<CurlAction, 'purge'>, string> = { replay: 'dead/replay', discard: 'dead/discard', revoke: 'tasks/revoke', convert: 'dead/convert-celery' };

/** Where a required reason goes when none is typed yet. */
export const REASON_PLACEHOLDER = '<why: recorded in the audit trail>';

export function curlCommand(args: { origin: string; brokerId: string; action: CurlAction; ids?: string[]; queue?: string; reason?: string; reasonRequired?: boolean }): string {
  const broker = encodeURIComponent(args.brokerId);
  const reason = args.reason?.trim() || (args.reasonRequired ? REASON_PLACEHOLDER : undefined);
  let path: string;
  let body: Record<string, unknown>;
  if (args.action === 'purge') {
    path = `queues/${encodeURIComponent(args.queue ?? '')}/purge`;
    body = { confirm: args.queue ?? '', ...(reason ? { reason } : {}) };
  } else {
    path = PATHS[args.action];
    body = { ids: args.ids ?? [], ...(reason ? { reason } : {}), ...(args.queue ? { queue: args.queue } : {}) };
  }
  return [
    'curl -sS -X POST',
    `-H "Authorization: Bearer ${TOKEN_PLACEHOLDER}"`,
    "-H 'content-type: application/json'",
    shellQuote(`${args.origin}/api/brokers/${broker}/${path}`),
    '-d',
    shellQuote(JSON.stringify(body)),
  ].join(' ');
}
