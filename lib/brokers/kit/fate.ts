// How an adapter tells a replayed task's fate (`BrokerAdapter.fate`) from reads it already has:
// the system says where to look (the task, its dead letter, its result, the id its replay made)
// and in what words, the kit asks in one order and bounds the work. Imports only the contract.
import { ConsoleError } from '@/lib/brokers/errors';
import { FATE_BATCH, type TaskFate } from '@/lib/brokers/dto-fate';
import type { StateDecl } from '@/lib/brokers/model';

/** A dead letter of the id: its error's fingerprint and one-line summary. */
export interface DeadSeen {
  fingerprint: string | null;
  detail: string;
  at: string | null;
  /** The queue the letter is in, where the system says. */
  queue?: string;
  /** The letter's own id, where the system's letter ids are not its task ids (the id a replay
   *  takes); absent: the id read. */
  letter?: string;
}

/** A stored final result of the id (the adapter answers null for one that is not final: started,
 *  retrying): `ok` a success; a failure counts as dead where no letter says more. */
export interface ResultSeen {
  ok: boolean;
  detail: string;
  at: string | null;
  fingerprint?: string | null;
}

export interface FateReads {
  /** The system's declared states: a task in an owned one runs, in any other it waits. */
  states: readonly StateDecl[];
  /** Where a replay gives the work another id (QueueFlow's `replay_job_id`): that id, the letter
   *  itself where it was not replayed (yet: the error it died of, read before a replay), or why
   *  it cannot be told. Absent: the replayed task keeps its id. */
  follow?(id: string): Promise<{ id: string } | { unknown: string } | { dead: DeadSeen }>;
  /** The task waiting or running under `id`: its declared state's key; null when none; why not
   *  where the system could not look everywhere (a queue longer than one read). */
  live(id: string): Promise<string | null | { unknown: string }>;
  /** The dead letter under `id`; null when none. */
  dead(id: string): Promise<DeadSeen | null>;
  /** The stored result under `id`; null when none. Absent where the system keeps none. */
  result?(id: string): Promise<ResultSeen | null>;
  /** What it means here that none of the reads found the id: `gone` (its result expired or was
   *  never kept) or `unknown` (a finished task leaves nothing to tell success from failure). */
  nothing: { fate: 'gone' | 'unknown'; detail: string };
}

/** Reads per id at most: follow, result, dead, live, and result and dead again for an id none of
 *  them found. A poll of FATE_BATCH ids costs at most FATE_BATCH × this many reads, whatever the
 *  campaign's size. */
export const READS_PER_ID = 6;
const PARALLEL = 8;

const fate = (id: string, followed: string | null, f: Omit<TaskFate, 'id' | 'followed'>): TaskFate => ({ id, followed, ...f });

async function fateOf(id: string, r: FateReads): Promise<TaskFate> {
  let at = id;
  let followed: string | null = null;
  const unknown = (detail: string) => fate(id, followed, { fate: 'unknown', state: null, fingerprint: null, detail, at: null });
  if (r.follow) {
    const f = await r.follow(id);
    if ('unknown' in f) return unknown(f.unknown);
    if ('dead' in f) return fate(id, null, { fate: 'dead', state: null, ...f.dead });
    at = f.id;
    followed = f.id === id ? null : f.id;
  }
  // The result first: one cheap read settles most tasks of a finished campaign.
  const ended = await endedAs(id, at, followed, r);
  if (ended) return ended;
  const state = await r.live(at);
  if (state !== null && typeof state === 'object') return unknown(state.unknown);
  if (state !== null) {
    const decl = r.states.find((s) => s.key === state);
    const kind = decl?.owned ? 'running' : 'waiting';
    return fate(id, followed, { fate: kind, state, fingerprint: null, detail: decl ? decl.label : state, at: null });
  }
  // Not live either: a task that finished while it was being read (no result nor letter yet when
  // they were read, no live row any more when that was) is read once more before "nothing".
  const late = await endedAs(id, at, followed, r);
  if (late) return late;
  return fate(id, followed, { fate: r.nothing.fate, state: null, fingerprint: null, detail: r.nothing.detail, at: null });
}

/** The fate of a task that ended, from its result and its dead letter, or null when neither says.
 *  A failure's fingerprint is the letter's where there is one, as the dead list groups it. */
async function endedAs(id: string, at: string, followed: string | null, r: FateReads): Promise<TaskFate | null> {
  const res = r.result ? await r.result(at) : null;
  if (res?.ok) return fate(id, followed, { fate: 'succeeded', state: null, fingerprint: null, detail: res.detail, at: res.at });
  const dead = await r.dead(at);
  if (dead) return fate(id, followed, { fate: 'dead', state: null, ...dead });
  if (res) return fate(id, followed, { fate: 'dead', state: null, fingerprint: res.fingerprint ?? null, detail: res.detail, at: res.at });
  return null;
}

/** One fate per id, in the ids' order, at most FATE_BATCH ids (more is InvalidInput naming `ids`),
 *  a few ids at a time. A read that fails fails the call: an unreachable system is not a fate. */
export async function fatesFrom(ids: readonly string[], reads: FateReads): Promise<TaskFate[]> {
  if (ids.length > FATE_BATCH) throw new ConsoleError('InvalidInput', `ids: at most ${FATE_BATCH} per fate call`);
  const out: TaskFate[] = new Array(ids.length);
  let next = 0;
  const lane = async () => {
    while (next < ids.length) {
      const i = next++;
      out[i] = await fateOf(ids[i]!, reads);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, ids.length) }, lane));
  return out;
}
