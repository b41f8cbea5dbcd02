import 'server-only';
import { randomUUID } from 'node:crypto';
import { ConsoleError, isConsoleError } from '@/lib/brokers/errors';
import type { EnqueuePreview, EnqueueRequest, EnqueueResult } from '@/lib/brokers/schema';
import { CODEC_REFUSED, ENQUEUE_SQL, enqueueJob, usesPayloadCodec } from './enqueue';
import { parseSdjEnqueue } from './enqueue-fields';
import type { SdjStore } from './store';
import type { SdjDialect } from './url';

// The enqueue action on the raw-SQL contract: the form's request read by SDJ's own field schema,
// and what the operator sees before sending it: the statement `enqueueJob` runs on this
// database (`ENQUEUE_SQL` of its dialect, character for character) followed by the values it
// binds. The preview checks everything the write checks (fields, schema gate, payload codec)
// and writes nothing; its id is a fresh UUID that the write does not reuse.

type Parsed = ReturnType<typeof parseSdjEnqueue>;

/** The state an enqueued job is in: SDJ's status, whether or not run_at lies ahead. */
const STATE = 'pending';

/** A parameter as its literal text in the preview (strings as JSON strings: newlines stay escaped). */
const shown = (v: string | number | null) => (v === null ? 'NULL' : typeof v === 'number' ? String(v) : JSON.stringify(v));

/** The statement and its bound values, one per line, as this dialect numbers them. */
export function statementText(dialect: SdjDialect, id: string, j: Parsed): string {
  const params: Array<[string, string]> = [
    ['id', dialect === 'postgres' ? shown(id) : `X'${id.replace(/-/g, '')}' (the UUID's 16 bytes, as binary(16) stores it)`],
    ['type', shown(j.type)],
    ['args', `${shown(j.argsJson)} (its UTF-8 bytes, ${Buffer.byteLength(j.argsJson, 'utf8')})`],
    ['queue', shown(j.queue)],
    ['priority', shown(j.priority)],
    ['max_retries', shown(j.maxRetries)],
    ['run_at', j.runAt === null ? 'NULL (runs as soon as a worker claims it)' : shown(j.runAt)],
  ];
  const mark = (i: number) => (dialect === 'postgres' ? `$${i + 1}` : `?${i + 1}`);
  const session = dialect === 'mysql' ? ["-- on the console's UTC session (SET time_zone = '+00:00'), as the contract asks"] : [];
  return [`${ENQUEUE_SQL[dialect]};`, ...session, '', '-- bound values', ...params.map(([k, v], i) => `-- ${mark(i)} ${k} = ${v}`)].join(
    '\n',
  );
}

async function checked(store: SdjStore, req: EnqueueRequest): Promise<Parsed> {
  const j = parseSdjEnqueue(req);
  await store.requireWritable();
  if (await usesPayloadCodec(store.db, j.queue)) throw new ConsoleError('Unsupported', CODEC_REFUSED);
  return j;
}

/** What `enqueueSdj` would run for `req`, validated the same way, written nowhere. */
export async function previewEnqueueSdj(store: SdjStore, brokerId: string, req: EnqueueRequest): Promise<EnqueuePreview> {
  const j = await checked(store, req);
  return {
    brokerId,
    id: '(a new UUID, made when the job is inserted)',
    queue: j.queue,
    task: j.type,
    state: STATE,
    payload: statementText(store.db.dialect, randomUUID(), j),
    preview: true,
    // The library has no command that enqueues by name from a shell: its producers are Go code.
    command: null,
  };
}

/** `enqueueJob`'s field names as the form's. */
const FORM_FIELD: Record<string, string> = { type: 'task', maxRetries: 'max_retries', runAt: 'run_at', uniqueKey: 'unique_key' };

function inForm(e: unknown): unknown {
  if (!isConsoleError(e) || e.code !== 'InvalidInput' || !e.fields) return e;
  const fields = Object.fromEntries(Object.entries(e.fields).map(([k, v]) => [FORM_FIELD[k] ?? k, v]));
  return new ConsoleError('InvalidInput', e.message, fields);
}

/** Inserts the job through the contract's INSERT (`enqueueJob`); `payload` is what ran. */
export async function enqueueSdj(store: SdjStore, brokerId: string, req: EnqueueRequest): Promise<EnqueueResult> {
  const j = parseSdjEnqueue(req);
  let written: { id: string; sql: string };
  try {
    written = await enqueueJob(store, { ...j, args: undefined });
  } catch (e) {
    throw inForm(e);
  }
  return { brokerId, id: written.id, queue: j.queue, task: j.type, state: STATE, payload: statementText(store.db.dialect, written.id, j) };
}
