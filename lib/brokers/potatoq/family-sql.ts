import 'server-only';
import type { ChordProgress, FamilyNode, FamilySource } from '@/lib/brokers/family/build';
import {
  CHORD_ERROR_PATTERN,
  groupPattern,
  nodeOfMessage,
  nodeOfResult,
  POTATOQ_FAMILY_UNSEEN,
  POTATOQ_FAMILY_WORDS,
  rootPattern,
} from './family';

// The family on potatoq's SQL brokers (SQLite, PostgreSQL): messages in `jobs` and `dead`,
// states in `results`, chords in `chord_parts` and `chords`. There is no index on the root
// id: members by root are a LIKE over the payloads, stopped at `cap` rows per table.

export interface FamilySql {
  /** Rows of one statement; `?` placeholders (a PostgreSQL runner numbers them). */
  all(sql: string, params: unknown[]): Promise<Record<string, unknown>[]>;
  tables: { jobs: string; dead: string; results: string; chordParts: string; chords: string };
}

const JOB_STATES: Record<number, { status: 'waiting' | 'running'; state: string }> = {
  0: { status: 'waiting', state: 'scheduled' },
  1: { status: 'waiting', state: 'ready' },
  2: { status: 'running', state: 'running' },
};

const payloadOf = (v: unknown): string | Buffer => (typeof v === 'string' || Buffer.isBuffer(v) ? v : '');

function jobNode(r: Record<string, unknown>): FamilyNode {
  const st = JOB_STATES[Number(r.state)] ?? { status: 'waiting' as const, state: String(r.state) };
  return nodeOfMessage(String(r.id), payloadOf(r.payload), { ...st, link: 'task' }, typeof r.task === 'string' ? r.task : null);
}
const deadNode = (r: Record<string, unknown>) =>
  nodeOfMessage(
    String(r.id),
    payloadOf(r.payload),
    { status: 'dead', state: 'dead', link: 'dead' },
    typeof r.task === 'string' ? r.task : null,
  );

export function sqlFamilySource(db: FamilySql): FamilySource {
  const t = db.tables;
  // The LIKE finds candidates; the decoded field decides (a pattern inside an argument is not a link).
  async function matching(like: string, keep: (n: FamilyNode) => boolean, cap: number) {
    const jobs = await db.all(`SELECT id, task, state, payload FROM ${t.jobs} WHERE payload LIKE ? ESCAPE '\\' LIMIT ${cap + 1}`, [like]);
    const dead = await db.all(`SELECT id, task, payload FROM ${t.dead} WHERE payload LIKE ? ESCAPE '\\' LIMIT ${cap + 1}`, [like]);
    const nodes = [...jobs.map(jobNode), ...dead.map(deadNode)].filter(keep);
    return { nodes: nodes.slice(0, cap), more: jobs.length > cap || dead.length > cap || nodes.length > cap };
  }
  return {
    async node(id) {
      const [job] = await db.all(`SELECT id, task, state, payload FROM ${t.jobs} WHERE id = ?`, [id]);
      if (job) return jobNode(job);
      const [dead] = await db.all(`SELECT id, task, payload FROM ${t.dead} WHERE id = ?`, [id]);
      if (dead) return deadNode(dead);
      const [res] = await db.all(`SELECT state, payload FROM ${t.results} WHERE id = ?`, [id]);
      return res ? nodeOfResult(id, String(res.state), res.payload === null ? null : payloadOf(res.payload)) : null;
    },
    byRoot: (rootId, cap) => matching(rootPattern(rootId), (n) => n.rootId === rootId, cap),
    byGroup: (groupId, cap) => matching(groupPattern(groupId), (n) => n.groupId === groupId, cap),
    chord: (groupId) => readSqlChord(db, groupId),
    words: POTATOQ_FAMILY_WORDS,
    unseen: [
      ...POTATOQ_FAMILY_UNSEEN,
      "Members are found by their root id in the payloads of waiting, running and dead tasks (no index: a scan that stops at the family's limit); a group's parts are counted only for chords (a plain group keeps no counter).",
    ],
  };
}

/** A chord's counters in potatoq's SQL store (the broker's tables, or a RabbitMQ broker's SQL
 *  result backend): parts done from `chord_parts` (one row per part: a part counts once), failed
 *  ones stored as `__chord_error__`; null when neither table has the group (not started, or
 *  older than 7 days). */
export async function readSqlChord(
  db: { all: FamilySql['all']; tables: Pick<FamilySql['tables'], 'chordParts' | 'chords'> },
  groupId: string,
): Promise<ChordProgress | null> {
  const t = db.tables;
  const [c] = await db.all(`SELECT remaining FROM ${t.chords} WHERE group_id = ?`, [groupId]);
  const [p] = await db.all(
    `SELECT count(*) AS done, sum(CASE WHEN result LIKE ? ESCAPE '\\' THEN 1 ELSE 0 END) AS failed FROM ${t.chordParts} WHERE group_id = ?`,
    [CHORD_ERROR_PATTERN, groupId],
  );
  if (!c && Number(p?.done ?? 0) === 0) return null;
  return { done: Number(p?.done ?? 0), failed: Number(p?.failed ?? 0) };
}

/** `?` placeholders numbered for PostgreSQL (`$1`, `$2`, ...); the statements above hold no
 *  `?` inside a literal. */
export const numbered = (sql: string): string => {
  let i = 0;
  return sql.replace(/\?/g, () => `$${++i}`);
};
