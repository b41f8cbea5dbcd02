import 'server-only';
import { jsonToTyped } from '@/lib/brokers/json-typed';
import { movedFrom } from '@/lib/brokers/mapping/job';
import type { MessageView, PayloadPreview } from '@/lib/brokers/schema';
import type { QfJob } from './wire';

// QueueFlow's job JSON -> the console's neutral views. A job's input is one JSON object (its
// payload): shown as the keyword arguments; QueueFlow has no positional arguments.

/** The payload as the job detail's raw text: exactly the JSON the server holds (re-serialised). */
export const payloadText = (job: Pick<QfJob, 'payload'>): string => JSON.stringify(job.payload ?? {});

/** A short inert preview for lists: the payload's JSON, cut. */
export function previewOf(payload: unknown, max = 160): PayloadPreview {
  const text = JSON.stringify(payload ?? {});
  return { kind: 'native', text: text.length > max ? `${text.slice(0, max - 1)}…` : text };
}

/** A job's settings and bookkeeping, in the order the API gives them, as the view's fields. */
function fieldsOf(job: QfJob): MessageView['fields'] {
  const out: MessageView['fields'] = [];
  for (const [k, v] of Object.entries(job.config ?? {})) out.push({ name: k, value: jsonToTyped(v) });
  if (job.idempotency_key !== undefined) out.push({ name: 'idempotency_key', value: { t: 'str', v: job.idempotency_key } });
  // A job a console move created says which letter it came from (its key is derived from it).
  const from = movedFrom(job.idempotency_key);
  if (from)
    out.push({ name: 'moved_from', value: { t: 'str', v: `letter ${from}, moved here by the console (its audit trail has the move)` } });
  out.push({ name: 'retry_count', value: { t: 'int', v: String(job.retry_count) } });
  if (job.error_message !== undefined) out.push({ name: 'error_message', value: { t: 'str', v: job.error_message } });
  if (job.workflow_id !== undefined) out.push({ name: 'workflow_id', value: { t: 'str', v: job.workflow_id } });
  if (job.metadata && Object.keys(job.metadata).length) out.push({ name: 'metadata', value: jsonToTyped(job.metadata) });
  if (job.tenant_id !== undefined) out.push({ name: 'tenant_id', value: { t: 'str', v: job.tenant_id } });
  return out;
}

export function jobView(job: QfJob): MessageView {
  return {
    format: 'queueflow',
    task: job.task_name,
    id: job.id,
    queue: job.queue_name,
    args: null,
    kwargs: jsonToTyped(job.payload ?? {}),
    fields: fieldsOf(job),
    headers: [],
    flags: [],
    foreign: null,
    value: null,
  };
}

/** The view of a dead letter whose original job is gone (QueueFlow's retention): no payload. */
export function missingJobView(letter: { job_id: string; task_name?: string; queue_name?: string }): MessageView {
  return {
    format: 'queueflow',
    task: letter.task_name ?? null,
    id: letter.job_id,
    queue: letter.queue_name ?? null,
    args: null,
    kwargs: null,
    fields: [],
    headers: [],
    flags: [
      {
        code: 'job-gone',
        label: 'job gone',
        why: "QueueFlow no longer has this letter's job (its retention removed it), so its payload is unknown and it cannot be replayed.",
      },
    ],
    foreign: null,
    value: null,
  };
}
