// The campaign store's rows as SQL gives them, and as the API says them (lib/campaigns/store.ts).
import type { CampaignItem, ItemFate, ItemQuery } from './schema';

export type CampaignRow = {
  id: string;
  broker: string;
  action: string;
  created_at: string;
  who: string;
  reason: string | null;
  audit_id: string | null;
  parent: string | null;
  scope: string;
  total: number | string;
  follow_state: string;
  follow_why: string | null;
  followed_ms: number | string;
};

export type ItemRow = {
  n: number | string;
  task_id: string;
  source_id: string | null;
  /** A dead item's letter id where it is not the task's (step campaigns-5); NULL otherwise, and
   *  in rows looked at before that step. */
  letter_id: string | null;
  before_fp: string | null;
  fate: string;
  same: number | null;
  fp: string | null;
  state: string | null;
  detail: string;
  followed: string | null;
  at: string | null;
  checked_ms: number | string;
};

export const toItem = (r: ItemRow): CampaignItem => ({
  id: r.task_id,
  from: r.source_id ?? null,
  fate: r.fate as ItemFate,
  state: r.state,
  before: r.before_fp,
  fingerprint: r.fp,
  same: r.same === null ? null : Number(r.same) === 1,
  detail: r.detail,
  followed: r.followed,
  letter: r.letter_id ?? null,
  at: r.at,
  checkedAt: Number(r.checked_ms) > 0 ? new Date(Number(r.checked_ms)).toISOString() : null,
});

/** The drill-down filters as SQL over an item row. */
export const FILTER_SQL: Record<ItemQuery['fate'], string> = {
  all: '',
  succeeded: "AND fate = 'succeeded'",
  dead: "AND fate = 'dead'",
  'dead-same': "AND fate = 'dead' AND same = 1",
  'dead-new': "AND fate = 'dead' AND same = 0",
  waiting: "AND fate = 'waiting'",
  running: "AND fate = 'running'",
  gone: "AND fate = 'gone'",
  unknown: "AND fate = 'unknown'",
  pending: "AND fate = 'pending'",
};
