// The result-record half of a fate for systems whose result records look like Celery's (potatoq
// and Celery: status, date_done, traceback): which statuses are final and the words for each.
// Imports only the contract; the fingerprint of a traceback is passed in by the system.
import type { ResultRecordDto } from '@/lib/brokers/dto-tasks';
import type { ResultSeen } from './fate';

/** Statuses a task is finished in; any other (PENDING, STARTED, RETRY) is not a fate yet. */
const FINAL = new Set(['SUCCESS', 'FAILURE', 'REVOKED']);

const kept = (r: ResultRecordDto) => (r.expiresAt ? `result kept until ${r.expiresAt}` : 'result kept');

/** A result record as a fate's result, or null when it is not final. */
export function seenResult(r: ResultRecordDto | null, fingerprint: (traceback: string) => string | null): ResultSeen | null {
  if (!r || !FINAL.has(r.status)) return null;
  const at = r.dateDone;
  if (r.status === 'SUCCESS') return { ok: true, detail: `${r.status}${at ? ` at ${at}` : ''}; ${kept(r)}`, at };
  const what = r.excType ? `${r.excType}${r.excMessage ? `: ${r.excMessage}` : ''}` : r.status;
  return { ok: false, detail: what.slice(0, 300), at, fingerprint: r.traceback ? fingerprint(r.traceback) : null };
}
