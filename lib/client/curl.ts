// "Copy as curl": the API call that does what an action dialog does, for scripts and runbooks.
// The token is always the shell variable $POTATOQ_CONSOLE_TOKEN, never a real secret (the
// browser holds none: pages are signed in by cookie); everything else is single-quoted.
import { shellQuote } from './cli';

export type CurlAction = 'replay' | 'discard' | 'revoke' | 'convert' | 'purge' | 'enqueue';

export const TOKEN_PLACEHOLDER = '$POTATOQ_CONSOLE_TOKEN';

const PATHS: Record<Exclude<CurlAction, 'purge' | 'enqueue'>, string> = {
  replay: 'dead/replay',
  discard: 'dead/discard',
  revoke: 'tasks/revoke',
  convert: 'dead/convert',
};

/** Where a required reason goes when none is typed yet. */
export const REASON_PLACEHOLDER = '<why: recorded in the audit trail>';

/** `body`: the enqueue request as the form sends it (other actions build theirs from ids/queue/reason). */
export function curlCommand(args: {
  origin: string;
  brokerId: string;
  action: CurlAction;
  ids?: string[];
  queue?: string;
  reason?: string;
  reasonRequired?: boolean;
  body?: Record<string, unknown>;
}): string {
  const broker = encodeURIComponent(args.brokerId);
  const reason = args.reason?.trim() || (args.reasonRequired ? REASON_PLACEHOLDER : undefined);
  let path: string;
  let body: Record<string, unknown>;
  if (args.action === 'enqueue') {
    path = 'enqueue';
    body = args.body ?? {};
  } else if (args.action === 'purge') {
    path = `queues/${encodeURIComponent(args.queue ?? '')}/purge`;
    body = { confirm: args.queue ?? '', ...(reason ? { reason } : {}) };
  } else {
    path = PATHS[args.action];
    body = { ids: args.ids ?? [], ...(reason ? { reason } : {}), ...(args.queue ? { queue: args.queue } : {}) };
  }
  return curlPost(`${args.origin}/api/brokers/${broker}/${path}`, body);
}

/** `curl` POSTing `body` as JSON to `url` with the token placeholder. */
export function curlPost(url: string, body: Record<string, unknown>): string {
  return [
    'curl -sS -X POST',
    `-H "Authorization: Bearer ${TOKEN_PLACEHOLDER}"`,
    "-H 'content-type: application/json'",
    shellQuote(url),
    '-d',
    shellQuote(JSON.stringify(body)),
  ].join(' ');
}

/** Starting a captured bulk job (the dialog's confirm button): its id, the count confirmed, why. */
export function curlBulkStart(args: {
  origin: string;
  brokerId: string;
  jobId: string;
  confirmCount: number;
  reason?: string;
  rate?: number;
}): string {
  const body = {
    confirmCount: args.confirmCount,
    reason: args.reason?.trim() || REASON_PLACEHOLDER,
    ...(args.rate !== undefined ? { rate: args.rate } : {}),
  };
  return curlPost(`${args.origin}/api/brokers/${encodeURIComponent(args.brokerId)}/bulk/${encodeURIComponent(args.jobId)}/start`, body);
}
