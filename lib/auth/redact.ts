import 'server-only';
import { HIDDEN_RAW, HIDDEN_TEXT } from '@/lib/redaction';
import { ConsoleError } from '@/lib/brokers/errors';
import type {
  DeadDetail,
  DeadListQuery,
  DeadSummary,
  MessageView,
  Page,
  ResultRecordDto,
  TaskDetail,
  TaskListRequest,
  TaskSummary,
  TypedValue,
} from '@/lib/brokers/schema';
import * as service from '@/lib/brokers/service';
import { getAuthConfig } from './config';

/**
 * Reads of task arguments, redacted when POTATOQ_CONSOLE_REDACT_ARGS is on: list previews, the
 * decoded args/kwargs, the raw message and the stored result record on detail pages (it
 * repeats the arguments; the results list carries none). Task names, ids, queues, times and tracebacks stay;
 * text search leaves arguments out (tasks: refused; dead letters: reasons only). Operators see the values
 * through the gated, audited `reveal` action only. Off by default: these are the service calls.
 */

const HIDDEN: TypedValue = { t: 'str', v: HIDDEN_TEXT };
const on = () => getAuthConfig().redactArgs;

function payload(p: MessageView): MessageView {
  // What the system's codec marks as carrying the arguments goes; names, ids and headers stay.
  const hidden = p.foreign ? null : HIDDEN;
  return {
    ...p,
    args: hidden,
    kwargs: hidden,
    value: null,
    fields: p.fields.map((f) => (f.carriesArgs ? { ...f, value: HIDDEN } : f)),
    headers: p.headers.filter((h) => !h.carriesArgs),
  };
}

const result = (r: ResultRecordDto | null): ResultRecordDto | null => (r ? { ...r, record: null, raw: HIDDEN_RAW } : null);
const summary = <T extends TaskSummary | DeadSummary>(s: T): T => ({ ...s, preview: { ...s.preview, text: HIDDEN_TEXT } });
// A conversion preview is the converted message: it carries the arguments too.
const conversion = (c: DeadDetail['conversion']): DeadDetail['conversion'] => (c?.ok ? { ...c, json: HIDDEN_RAW } : c);
const detail = <T extends TaskDetail | DeadDetail>(d: T): T => ({
  ...summary(d),
  payload: payload(d.payload),
  raw: HIDDEN_RAW,
  rawTruncated: false,
  result: result(d.result),
  ...('conversion' in d && d.conversion ? { conversion: conversion(d.conversion) } : {}),
});
// A shared list (lib/brokers/read-cache.ts) is one object for every reader within its reuse time
// and never changes: its redacted copy is made once and shared the same way (never changed).
const redactedPages = new WeakMap<object, Page<TaskSummary | DeadSummary>>();
function page<T extends TaskSummary | DeadSummary>(p: Page<T>): Page<T> {
  let out = redactedPages.get(p) as Page<T> | undefined;
  if (!out) redactedPages.set(p, (out = { ...p, items: p.items.map(summary) }));
  return out;
}

/** Why a text search is refused while arguments are hidden: it would tell what they hold. */
export const SEARCH_HIDDEN = 'searching in task arguments is off while arguments are hidden (POTATOQ_CONSOLE_REDACT_ARGS)';

export const readTasks = async (brokerId: string, q: TaskListRequest) => {
  if (!on()) return service.listTasks(brokerId, q);
  if (q.q) throw new ConsoleError('InvalidInput', SEARCH_HIDDEN, { q: SEARCH_HIDDEN });
  return page(await service.listTasks(brokerId, q));
};
/** With arguments hidden, a dead-letter search looks at reasons only. */
export const readDead = async (brokerId: string, q: DeadListQuery) =>
  on() ? page(await service.listDead(brokerId, { ...q, qIn: 'reason' })) : service.listDead(brokerId, q);
export const readTask = async (b: string, id: string) => (on() ? detail(await service.getTask(b, id)) : service.getTask(b, id));
export const readDeadOne = async (b: string, id: string) => (on() ? detail(await service.getDead(b, id)) : service.getDead(b, id));
/** A task's stored result record; with arguments hidden, its record and raw JSON go (they repeat them). */
export const readResult = async (b: string, id: string) => (on() ? result(await service.getResult(b, id)) : service.getResult(b, id));
