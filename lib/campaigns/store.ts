import 'server-only';
import { randomUUID } from 'node:crypto';
import type { TaskFate } from '@/lib/brokers/dto-fate';
import { SETTLED } from '@/lib/brokers/dto-fate';
import type { SqlRunner } from '@/lib/state/sql';
import { rollupOf, sameError, type FateCount } from './rollup';
import { bulkCampaignMethods, ITEM_COLS, NEW_ITEM } from './store-bulk';
import { queuesColumn } from './schema';
import type {
  Campaign,
  CampaignItems,
  CampaignList,
  CampaignListQuery,
  FollowState,
  ItemFate,
  ItemQuery,
  NewCampaign,
  NewItem,
} from './schema';
import { moveScope } from './schema';
import { FILTER_SQL, toItem, type CampaignRow, type ItemRow } from './store-rows';

// Campaigns on the console's state store (tables in lib/state/steps.ts, `campaigns-1`), the
// same SQL on SQLite and PostgreSQL. The items are rows, so a 100,000-task campaign costs its
// follow-up one indexed read of the next batch, never the whole list.

export type { NewCampaign, NewItem } from './schema';

export interface DueItem {
  n: number;
  id: string;
  before: string | null;
}

const SCOPE_IDS = 20;
const INSERT_ROWS = 200;
const nowIso = () => new Date().toISOString();

export function createCampaignStore(db: SqlRunner) {
  async function counts(id: string): Promise<FateCount[]> {
    const rows = await db.all<{ fate: string; same: number | null; n: number | string }>(
      'SELECT fate, same, COUNT(*) AS n FROM console_campaign_items WHERE campaign = ? GROUP BY fate, same',
      [id],
    );
    return rows.map((r) => ({ fate: r.fate as ItemFate, same: r.same === null ? null : Number(r.same) === 1, n: Number(r.n) }));
  }

  async function toCampaign(r: CampaignRow): Promise<Campaign> {
    const scope = JSON.parse(r.scope) as Campaign['scope'];
    const followed = Number(r.followed_ms);
    return {
      id: r.id,
      broker: r.broker,
      action: r.action,
      createdAt: r.created_at,
      who: r.who,
      reason: r.reason,
      auditId: r.audit_id,
      parent: r.parent,
      scope,
      follow: { state: r.follow_state as FollowState, why: r.follow_why, lastAt: followed > 0 ? new Date(followed).toISOString() : null },
      rollup: rollupOf(await counts(r.id)),
    };
  }

  async function insertItems(id: string, items: readonly NewItem[], from = 0): Promise<void> {
    for (let i = 0; i < items.length; i += INSERT_ROWS) {
      const chunk = items.slice(i, i + INSERT_ROWS);
      const values = chunk.map(() => `(?, ?, ?, ?, ?, ${NEW_ITEM})`).join(', ');
      const params = chunk.flatMap((it, j) => [id, from + i + j, it.id, it.before, it.from ?? null]);
      await db.run(`INSERT INTO console_campaign_items (${ITEM_COLS}) VALUES ${values}`, params);
    }
  }

  async function insertCampaign(c: NewCampaign, scope: Campaign['scope'], state: FollowState, why: string | null): Promise<string> {
    const id = `cmp-${randomUUID()}`;
    await db.run(
      `INSERT INTO console_campaigns (id, broker, action, created_at, who, reason, audit_id, parent, scope, total, follow_state, follow_why, followed_ms, queues)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)`,
      [
        id,
        c.broker,
        c.action,
        nowIso(),
        c.who,
        c.reason,
        c.auditId,
        c.parent,
        JSON.stringify(scope),
        scope.count,
        state,
        why,
        queuesColumn(c),
      ],
    );
    return id;
  }

  return {
    ...bulkCampaignMethods(db),

    /** A campaign over `items` (deduplicated by the caller); `off` with why where the broker tells no fates. */
    async create(c: NewCampaign, items: readonly NewItem[], off: string | null = null): Promise<string> {
      const scope = { ids: items.slice(0, SCOPE_IDS).map((i) => i.id), filter: c.filter, count: items.length, ...moveScope(c) };
      const id = await insertCampaign(c, scope, off ? 'off' : 'following', off);
      await insertItems(id, items);
      return id;
    },

    async get(id: string): Promise<Campaign | null> {
      const r = (await db.all<CampaignRow>('SELECT * FROM console_campaigns WHERE id = ?', [id]))[0];
      return r ? toCampaign(r) : null;
    },

    /** Newest first; `task`: the campaigns that replayed or moved this id (its id on either broker), on `broker` when given. */
    async list(q: CampaignListQuery): Promise<CampaignList> {
      const where: string[] = [];
      const params: unknown[] = [];
      const add = (sql: string, ...p: unknown[]) => {
        where.push(sql);
        params.push(...p);
      };
      if (q.broker) add('c.broker = ?', q.broker);
      // A moved task is found by its id on either broker: the one it is followed under, or its source id.
      if (q.task)
        add(
          'c.id IN (SELECT campaign FROM console_campaign_items WHERE task_id = ? UNION SELECT campaign FROM console_campaign_items WHERE source_id = ?)',
          q.task,
          q.task,
        );
      // The job id is checked to be [a-z0-9-] (schema), so it cannot escape the pattern.
      if (q.job) add('c.scope LIKE ?', `%"jobId":"${q.job}"%`);
      const [at, id] = q.cursor?.split('|') ?? [];
      if (at && id) add('(c.created_at < ? OR (c.created_at = ? AND c.id < ?))', at, at, id);
      const rows = await db.all<CampaignRow>(
        `SELECT c.* FROM console_campaigns c ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY c.created_at DESC, c.id DESC LIMIT ?`,
        [...params, q.limit + 1],
      );
      const page = rows.slice(0, q.limit);
      const last = page[page.length - 1];
      return {
        items: await Promise.all(page.map(toCampaign)),
        nextCursor: rows.length > q.limit && last ? `${last.created_at}|${last.id}` : null,
      };
    },

    async items(id: string, q: ItemQuery): Promise<CampaignItems> {
      const after = q.cursor === undefined ? -1 : Number(q.cursor);
      const rows = await db.all<ItemRow>(
        `SELECT * FROM console_campaign_items WHERE campaign = ? AND n > ? ${FILTER_SQL[q.fate]} ORDER BY n LIMIT ?`,
        [id, after, q.limit + 1],
      );
      const page = rows.slice(0, q.limit);
      const last = page[page.length - 1];
      return { items: page.map(toItem), nextCursor: rows.length > q.limit && last ? String(last.n) : null };
    },

    /**
     * Takes the campaign's next poll if none was taken in the last `minMs` (one conditional
     * update: two page views, or two consoles, never poll together). False: not due.
     */
    async claimPoll(id: string, now: number, minMs: number): Promise<boolean> {
      const changed = await db.run(
        "UPDATE console_campaigns SET followed_ms = ? WHERE id = ? AND follow_state = 'following' AND followed_ms <= ?",
        [now, id, now - minMs],
      );
      return changed === 1;
    },

    /** The next `limit` unsettled items, never looked at or looked at longest ago first. */
    async due(id: string, limit: number): Promise<DueItem[]> {
      const rows = await db.all<{ n: number | string; task_id: string; before_fp: string | null }>(
        'SELECT n, task_id, before_fp FROM console_campaign_items WHERE campaign = ? AND settled = 0 ORDER BY checked_ms, n LIMIT ?',
        [id, limit],
      );
      return rows.map((r) => ({ n: Number(r.n), id: r.task_id, before: r.before_fp }));
    },

    /** Records one look at each item, in one transaction. */
    async saveFates(id: string, looked: ReadonlyArray<{ item: DueItem; fate: TaskFate }>, now: number): Promise<void> {
      if (!looked.length) return;
      await db.batch(
        looked.map(({ item, fate: f }) => [
          `UPDATE console_campaign_items SET fate = ?, same = ?, fp = ?, state = ?, detail = ?, followed = ?, letter_id = ?, at = ?, checked_ms = ?, settled = ?
           WHERE campaign = ? AND n = ?`,
          [
            f.fate,
            f.fate === 'dead' ? toBit(sameError(item.before, f.fingerprint)) : null,
            f.fingerprint,
            f.state,
            f.detail.slice(0, 1000),
            f.followed,
            letterOf(item.id, f),
            f.at,
            now,
            SETTLED.has(f.fate) ? 1 : 0,
            id,
            item.n,
          ],
        ]),
      );
    },

    /** Campaigns still following, polled longest ago first, at most `limit` (the background follower's round). */
    async following(limit: number): Promise<string[]> {
      const rows = await db.all<{ id: string }>(
        "SELECT id FROM console_campaigns WHERE follow_state = 'following' ORDER BY followed_ms, id LIMIT ?",
        [limit],
      );
      return rows.map((r) => r.id);
    },

    async setFollow(id: string, state: FollowState, why: string | null): Promise<void> {
      await db.run('UPDATE console_campaigns SET follow_state = ?, follow_why = ? WHERE id = ?', [state, why, id]);
    },

    /** Whether any item is still unsettled. */
    async unsettled(id: string): Promise<boolean> {
      return (await db.all('SELECT 1 FROM console_campaign_items WHERE campaign = ? AND settled = 0 LIMIT 1', [id])).length > 0;
    },

    /**
     * The letters of the tasks that died again, in order, at most `limit`, with their fingerprint
     * now: each one's letter id where the broker gave its letter one of its own (a task moved into
     * QueueFlow dies as a job with a letter of another id), else the task's id. What a replay takes.
     */
    async deadAgain(id: string, limit: number): Promise<NewItem[]> {
      const rows = await db.all<{ task_id: string; letter_id: string | null; fp: string | null }>(
        "SELECT task_id, letter_id, fp FROM console_campaign_items WHERE campaign = ? AND fate = 'dead' ORDER BY n LIMIT ?",
        [id, limit],
      );
      return rows.map((r) => ({ id: r.letter_id ?? r.task_id, before: r.fp }));
    },
  };
}

const toBit = (b: boolean | null) => (b === null ? null : b ? 1 : 0);

/** A dead task's letter id where the broker says it is not the task's own; null otherwise. */
export const letterOf = (taskId: string, f: Pick<TaskFate, 'fate' | 'letter'>): string | null =>
  f.fate === 'dead' && f.letter && f.letter !== taskId ? f.letter : null;

export type CampaignStore = ReturnType<typeof createCampaignStore>;
