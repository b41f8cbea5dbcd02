import 'server-only';
import { referenced, type FamilyNode, type FamilySource } from '@/lib/brokers/family/build';
import type { FamilyStatus } from '@/lib/brokers/family/schema';
import type { TypedValue } from '@/lib/brokers/typed-value';
import type { PyVal } from '@/lib/pyvalues/pyval';
import type { CeleryInfo } from '@/lib/celery-protocol/message';

// Celery's canvas ids: protocol 2 headers (`root_id`, `parent_id`, `group`) and the body's
// embed (`chord`: the callback's signature, `callbacks`: a chain's next step), and the result
// backend's records (`children`, `group_id`, `parent_id`). Shared by Celery's stores.

const entry = (v: TypedValue | null | undefined, key: string): TypedValue | null =>
  v && v.t === 'dict' ? (v.entries.find((e) => e[0] === key)?.[1] ?? null) : null;
const text = (v: TypedValue | null): string | null => (v && (v.t === 'str' || v.t === 'uuid') && v.v !== '' ? v.v : null);

/** A signature's fixed id and task name (`options.task_id`). */
function sigRef(v: TypedValue | null): { id: string; task: string | null } | null {
  const id = text(entry(entry(v, 'options'), 'task_id'));
  return id ? { id, task: text(entry(v, 'task')) } : null;
}
const items = (v: TypedValue | null): TypedValue[] => (v && (v.t === 'list' || v.t === 'tuple') ? v.items : []);

/** A waiting or reserved message. */
export function nodeOfCeleryMessage(id: string, info: CeleryInfo, reserved: boolean, state: string): FamilyNode {
  const cb = sigRef(info.chord);
  // A chain's later steps travel in the embed's `chain`, last step first.
  const later = items(info.chain)
    .map(sigRef)
    .filter((x): x is { id: string; task: string | null } => x !== null)
    .reverse();
  const next = [...items(info.callbacks).map(sigRef), later[0] ?? null].filter((x): x is { id: string; task: string | null } => x !== null);
  const implied = later.map((s, i) => referenced(s.id, s.task, i === 0 ? id : later[i - 1]!.id));
  return {
    ...referenced(id, info.task),
    status: reserved ? 'running' : 'waiting',
    state,
    link: 'task',
    rootId: info.rootId,
    parentId: info.parentId !== null && info.parentId !== id ? info.parentId : null,
    groupId: info.groupId,
    chord: cb ? { size: null, callbackId: cb.id, callbackTask: cb.task } : null,
    next,
    implied,
  };
}

const pyGet = (v: PyVal, key: string): PyVal | null => (v.k === 'dict' ? (v.entries.find((e) => e[0] === key)?.[1] ?? null) : null);
const pyText = (v: PyVal | null): string | null => (v && v.k === 'str' && v.v !== '' ? v.v : null);

/** Ids in a stored `children` list: result tuples `[[id, parent], None]`, nested for groups. */
export function childIds(v: PyVal | null, out: string[] = [], depth = 0): string[] {
  if (!v || depth > 8 || out.length >= 1000) return out;
  if (v.k !== 'list') return out;
  const [head] = v.items;
  // `[id, parent]`: a task's own result tuple.
  if (v.items.length === 2 && head && head.k === 'str') {
    out.push(head.v);
    return out;
  }
  for (const x of v.items) childIds(x, out, depth + 1);
  return out;
}

const STATUS: Record<string, FamilyStatus> = {
  SUCCESS: 'succeeded',
  FAILURE: 'failed',
  REVOKED: 'revoked',
  STARTED: 'running',
  RETRY: 'waiting',
  RECEIVED: 'waiting',
};

/** A task known by its stored result: a FAILURE is the console's Celery dead letter. */
export function nodeOfCeleryRecord(id: string, status: string, name: string | null, value: PyVal): FamilyNode {
  const s = STATUS[status] ?? 'unknown';
  return {
    ...referenced(id, name),
    status: s,
    state: status,
    link: s === 'failed' ? 'dead' : null,
    parentId: pyText(pyGet(value, 'parent_id')),
    groupId: pyText(pyGet(value, 'group_id')),
    children: childIds(pyGet(value, 'children')),
  };
}

export const CELERY_FAMILY_WORDS: FamilySource['words'] = {
  chordBlocked:
    "Celery's result backend counts each part once: once every part is in, the callback fails with ChordError and never runs. Replaying the failed part runs it again, but the chord has already counted it, so the callback stays failed: send the callback again yourself if it must run",
  chainBlocked:
    'a failed task stops its chain: Celery never sends the next step (it has no message and no result). Replaying the failed task sends it again with its chain, so the rest runs once it succeeds',
};

export const CELERY_FAMILY_UNSEEN = [
  "Children are what a finished task's stored result lists (`children`): a task whose result is not stored (ignore_result, expired after result_expires, no result backend) shows none, and its descendants are found only from their own messages.",
  "A chord's callback is named only in its parts' messages: once every part has run, its id is no longer linked to the chord (the callback's own result keeps no group).",
  "Tasks waiting in a queue are found by id only (kombu's lists have no index by root or group): a group's waiting parts show once they have run, or from a member that names them.",
];
