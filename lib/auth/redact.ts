import 'server-only';
import { HIDDEN_RAW, HIDDEN_TEXT } from '@/components/auth/redaction';
import type { DeadDetail, DeadSummary, Page, ResultRecordDto, TaskDetail, TaskSummary } from '@/lib/brokers/schema';
import * as service from '@/lib/brokers/service';
import type { DecodedPayload, PValue } from '@/lib/potatoq/types';
import { getAuthConfig } from './config';

/**
 * Reads of task arguments, redacted when POTATOQ_CONSOLE_REDACT_ARGS is on: list previews, the
 * decoded args/kwargs, the raw message and the stored result record on detail pages (it
 * repeats the arguments; the results list carries none). Task names, ids, queues, times and tracebacks stay. Operators see the values
 * through the gated, audited `reveal` action only. Off by default: these are the service calls.
 */

const HIDDEN: PValue = { t: 'str', v: HIDDEN_TEXT };
const on = () => getAuthConfig().redactArgs;

function payload(p: DecodedPayload): DecodedPayload {
  if (p.kind === 'foreign') {
    return { ...p, value: null, celery: p.celery ? { ...p.celery, args: null, kwargs: null, argsrepr: null, kwargsrepr: null } : null };
  }
  return { ...p, args: HIDDEN, kwargs: HIDDEN, fields: p.fields.map(([k, v]) => [k, k === 'args' || k === 'kwargs' ? HIDDEN : v]) };
}

const result = (r: ResultRecordDto | null): ResultRecordDto | null => (r ? { ...r, record: null, raw: HIDDEN_RAW } : null);
const summary = <T extends TaskSummary | DeadSummary>(s: T): T => ({ ...s, preview: { ...s.preview, text: HIDDEN_TEXT } });
const detail = <T extends TaskDetail | DeadDetail>(d: T): T => ({ ...summary(d), payload: payload(d.payload), raw: HIDDEN_RAW, rawTruncated: false, result: result(d.result) });
const page = <T extends TaskSummary | DeadSummary>(p: Page<T>): Page<T> => ({ ...p, items: p.items.map(summary) });

export const readTasks = async (...a: Parameters<typeof service.listTasks>) => (on() ? page(await service.listTasks(...a)) : service.listTasks(...a));
export const readDead = async (...a: Parameters<typeof service.listDead>) => (on() ? page(await service.listDead(...a)) : service.listDead(...a));
export const readTask = async (b: string, id: string) => (on() ? detail(await service.getTask(b, id)) : service.getTask(b, id));
export const readDeadOne = async (b: string, id: string) => (on() ? detail(await service.getDead(b, id)) : service.getDead(b, id));
