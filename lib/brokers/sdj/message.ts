import 'server-only';
import { jsonToTyped } from '@/lib/brokers/json-typed';
import { RAW_LIMIT } from '@/lib/brokers/message-view';
import type { MessageView, PayloadPreview, TypedValue, ValueNote } from '@/lib/brokers/schema';
import type { SdjJobDetail } from './detail';
import { ENCRYPTED_PREFIX, type SdjPayload } from './payload';

// SDJ's `jobs` row -> the console's neutral views. A job's `args` is one JSON value (the Go
// handler's argument, usually a struct: an object), shown as the keyword arguments when it is an
// object and as the positional ones when it is a list; anything else (a scalar, ciphertext of a
// payload codec, bytes that are not JSON) is shown as the `args` field, bytes as bytes.

const ENCRYPTED: ValueNote = {
  code: 'encrypted',
  label: 'encrypted',
  why: "The application's payload codec encrypted these bytes (sdjenc:): only its workers can read them, so they are shown as bytes.",
};
const NOT_JSON: ValueNote = {
  code: 'not-json',
  label: 'not JSON',
  why: 'These bytes are not JSON text, so they are shown as bytes: a Go worker decoding them as JSON fails the job.',
};

/** A stored payload (`args`, `result`, a checkpoint's result) as a typed value, bytes as bytes. */
export function payloadValue(p: SdjPayload): TypedValue {
  return p.kind === 'json' ? jsonToTyped(p.value) : { t: 'bytes', base64: p.base64, size: p.size };
}

/** The note a payload needs (encrypted, not JSON), or null. */
export const payloadNote = (p: SdjPayload | null): ValueNote | null =>
  p?.kind === 'encrypted' ? ENCRYPTED : p?.kind === 'bytes' ? NOT_JSON : null;

/** The text the detail page shows as raw: the stored bytes as UTF-8 text, else base64; cut at RAW_LIMIT. */
export function rawOf(bytes: Buffer | null): { raw: string; rawSize: number; rawTruncated: boolean } {
  if (!bytes) return { raw: '', rawSize: 0, rawTruncated: false };
  const text = bytes.toString('utf8');
  const shown = Buffer.from(text, 'utf8').equals(bytes) ? text : bytes.toString('base64');
  return { raw: shown.slice(0, RAW_LIMIT), rawSize: bytes.length, rawTruncated: shown.length > RAW_LIMIT };
}

/** A short inert preview for lists from the first bytes of `args` and its full size. */
export function previewOf(head: Buffer | null, size: number, max = 160): PayloadPreview {
  if (!head || size === 0) return { kind: 'native', text: '' };
  if (head.subarray(0, ENCRYPTED_PREFIX.length).toString('latin1') === ENCRYPTED_PREFIX)
    return { kind: 'native', text: `encrypted (${size.toLocaleString('en-US')} bytes)` };
  // A head cut inside a character ends in a replacement character: dropped.
  const text = head.toString('utf8').replace(/\uFFFD+$/, '');
  if (text.includes('\uFFFD')) return { kind: 'native', text: `${size.toLocaleString('en-US')} bytes, not text` };
  const flat = text.replace(/\s+/g, ' ');
  return { kind: 'native', text: flat.length > max || size > head.length ? `${flat.slice(0, max - 1)}…` : flat };
}

const str = (v: string): TypedValue => ({ t: 'str', v });
const int = (v: number | string): TypedValue => ({ t: 'int', v: String(v) });

/** Metadata is JSON text (a CHECK on MySQL): shown as its value, else as the text. */
function metadataValue(text: string): TypedValue {
  try {
    return jsonToTyped(JSON.parse(text));
  } catch {
    return str(text);
  }
}

/** The row's other columns, in the order an operator asks about them; unset ones left out. */
function fieldsOf(j: SdjJobDetail): MessageView['fields'] {
  const out: MessageView['fields'] = [];
  const add = (name: string, value: TypedValue | null, carriesArgs = false) => {
    if (value) out.push(carriesArgs ? { name, value, carriesArgs } : { name, value });
  };
  const at = (v: string | null) => (v ? str(v) : null);
  add('status', str(j.status));
  add('attempt', str(`${j.attempt} of ${j.maxRetries} runs`));
  add('priority', int(j.priority));
  add('run_at', at(j.runAt));
  add('created_at', at(j.createdAt));
  add('started_at', at(j.startedAt));
  add('completed_at', at(j.completedAt));
  add('last_error', at(j.lastError));
  add('dead_lettered_at', at(j.deadLetteredAt));
  add('dead_letter_reason', at(j.deadLetterReason));
  add('locked_by', at(j.lockedBy));
  add('locked_until', at(j.lockedUntil));
  add('last_heartbeat_at', at(j.lastHeartbeatAt));
  add('timeout', j.timeoutNs !== '0' ? str(`${j.timeoutNs} ns`) : null);
  add('unique_key', at(j.uniqueKey));
  add('tenant', at(j.tenant));
  add('metadata', j.metadata ? metadataValue(j.metadata) : null);
  add('previous_status', at(j.previousStatus));
  add('parent_job_id', j.parentJobId ? { t: 'uuid', v: j.parentJobId } : null);
  add('root_job_id', j.rootJobId ? { t: 'uuid', v: j.rootJobId } : null);
  add('fan_out_id', j.fanOutId ? { t: 'uuid', v: j.fanOutId } : null);
  add('fan_out_index', j.fanOutId && j.fanOutIndex !== null ? int(j.fanOutIndex) : null);
  if (j.fanOuts.length)
    add('fan_outs', {
      t: 'list',
      items: j.fanOuts.map((f) => ({
        t: 'dict',
        entries: [
          ['id', { t: 'uuid', v: f.id }],
          ['strategy', f.strategy ? str(f.strategy) : { t: 'null' }],
          ['status', f.status ? str(f.status) : { t: 'null' }],
          ['total', int(f.totalCount)],
          ['completed', int(f.completedCount)],
          ['failed', int(f.failedCount)],
          ['cancelled', int(f.cancelledCount)],
        ],
      })),
    });
  if (j.childIds.length)
    add('sub_jobs', {
      t: 'list',
      items: j.childIds.map((id) => ({ t: 'uuid', v: id })),
      ...(j.childrenTruncated ? { truncated: 1 } : {}),
    });
  if (j.checkpoints.length)
    add(
      'checkpoints',
      {
        t: 'list',
        items: j.checkpoints.map((c) => ({
          t: 'dict',
          entries: [
            ['call_index', int(c.callIndex)],
            ['call_type', str(c.callType)],
            ['result', c.result ? payloadValue(c.result) : { t: 'null' }],
            ...(c.error ? [['error', str(c.error)] as [string, TypedValue]] : []),
            ...(c.createdAt ? [['created_at', str(c.createdAt)] as [string, TypedValue]] : []),
          ],
        })),
      },
      true,
    );
  add('result', j.result ? payloadValue(j.result) : null, true);
  return out;
}

/** A job as the console shows it: its type as the task, `args` decoded, every column that says something. */
export function jobView(j: SdjJobDetail): MessageView {
  const a = j.args;
  const json = a?.kind === 'json' ? a.value : undefined;
  const isList = Array.isArray(json);
  const isObject = json !== null && typeof json === 'object' && !isList;
  const fields = fieldsOf(j);
  if (a && !isList && !isObject) fields.unshift({ name: 'args', value: payloadValue(a), carriesArgs: true });
  const flags = [payloadNote(a), payloadNote(j.result)].filter((n, i, all): n is ValueNote => n !== null && all.indexOf(n) === i);
  return {
    format: 'sdj',
    task: j.type,
    id: j.id,
    queue: j.queue,
    args: isList ? jsonToTyped(json) : null,
    kwargs: isObject ? jsonToTyped(json) : null,
    fields,
    headers: [],
    flags,
    foreign: null,
    value: null,
  };
}
