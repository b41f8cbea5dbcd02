import 'server-only';
import { referenced, type FamilyNode, type FamilySource } from '@/lib/brokers/family/build';
import type { FamilyStatus } from '@/lib/brokers/family/schema';

// potatoq's canvas ids, read from its messages (`root_id`, `parent_id`, `group_id`,
// `group_index`, `chord: {callback, size}`, `link`: message fields of potatoq's wire format)
// and its result records; shared by every potatoq store. Values are read as plain JSON: the
// ids are strings and no tagged value is needed to link tasks.

const rec = (v: unknown): Record<string, unknown> | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);

/** A frozen signature's id and task (`options.task_id`); null when it has no fixed id. */
function sigRef(v: unknown): { id: string; task: string | null } | null {
  const s = rec(v);
  const id = str(rec(s?.options)?.task_id);
  return id ? { id, task: str(s?.task) } : null;
}

function parse(text: string | Buffer): Record<string, unknown> | null {
  try {
    return rec(JSON.parse(typeof text === 'string' ? text : text.toString('utf8')));
  } catch {
    return null;
  }
}

/** A task found as a message (waiting, running or dead). A payload that is not potatoq's
 *  JSON keeps its id and links nothing. */
export function nodeOfMessage(
  id: string,
  payload: string | Buffer,
  at: { status: FamilyStatus; state: string; link: 'task' | 'dead' },
  task: string | null = null,
): FamilyNode {
  const m = parse(payload);
  if (!m) return { ...referenced(id, task), ...at };
  const chord = rec(m.chord);
  const links = Array.isArray(m.link) ? m.link : [];
  const implied: FamilyNode[] = [];
  impliedSteps(links, id, implied, 0);
  return {
    id,
    task: str(m.task) ?? task,
    ...at,
    rootId: str(m.root_id),
    parentId: str(m.parent_id),
    groupId: str(m.group_id),
    groupIndex: int(m.group_index),
    chord: chord
      ? { size: int(chord.size), callbackId: sigRef(chord.callback)?.id ?? null, callbackTask: sigRef(chord.callback)?.task ?? null }
      : null,
    next: links.map(sigRef).filter((x): x is { id: string; task: string | null } => x !== null),
    implied,
  };
}

/** A chain's later steps as its links nest them (`options.link` of each step), each the child
 *  of the step before; at most 256 of them, however deep or wide the message nests. */
function impliedSteps(links: unknown[], parentId: string, out: FamilyNode[], depth: number): void {
  if (depth > 64) return;
  for (const l of links) {
    if (out.length >= 256) return;
    const ref = sigRef(l);
    if (!ref) continue;
    out.push(referenced(ref.id, ref.task, parentId));
    const inner = rec(rec(l)?.options)?.link;
    if (Array.isArray(inner)) impliedSteps(inner, ref.id, out, depth + 1);
  }
}

const RESULT_STATUS: Record<string, FamilyStatus> = { SUCCESS: 'succeeded', FAILURE: 'failed', REVOKED: 'revoked', REJECTED: 'failed' };

/** A finished task known by its result record: its state and name, no links (potatoq's
 *  records keep none). */
export function nodeOfResult(id: string, state: string, payload: string | Buffer | null): FamilyNode {
  const r = payload === null ? null : parse(payload);
  return { ...referenced(id, str(r?.name)), status: RESULT_STATUS[state] ?? 'unknown', state };
}

/** A message body's text holds `"root_id":"<id>"` exactly so (potatoq writes compact JSON,
 *  raw UTF-8): the LIKE pattern for it, with LIKE's own wildcards escaped (`\`). */
export function rootPattern(rootId: string): string {
  return `%${`"root_id":${JSON.stringify(rootId)}`.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** As `rootPattern`, for `"group_id":"<id>"`. */
export function groupPattern(groupId: string): string {
  return `%${`"group_id":${JSON.stringify(groupId)}`.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A part's stored result is an error marker when the part failed (`__chord_error__`). */
export const CHORD_ERROR_PATTERN = '%"\\_\\_chord\\_error\\_\\_"%';

export const POTATOQ_FAMILY_WORDS: FamilySource['words'] = {
  chordBlocked:
    'potatoq records a failed part as an error in the chord: once every part is in, the callback fails with ChordError and never runs. Replaying the part runs it again, but the chord keeps the error it recorded first (a part counts once), so the callback stays failed: enqueue the callback again yourself if it must run',
  chainBlocked:
    'a failed task fails the rest of its chain (potatoq stores FAILURE for each later step and never runs it); replaying the failed task runs it and, when it succeeds, sends the next step again',
};

export const POTATOQ_FAMILY_UNSEEN = [
  'Finished tasks leave the broker: their results (when stored) give their state, but no parent or root id, so a finished member is found only where another member names it (its chain step, its chord callback, its parent).',
  "Results expire after result_expires (1 day by default), chord counters after 7 days: older members show as 'unknown'.",
];
