import 'server-only';
import type { z } from 'zod';
import { ConsoleError } from '@/lib/brokers/errors';
import { getStateDb, type SqlRunner } from '@/lib/state/sql';
import { ZAlertTarget, type AlertTarget } from './schema';
import { ZWebhookSettings, type WebhookSettings } from './webhook-schema';

/**
 * Targets and the webhook edited in the console, in the state store every console process on
 * it shares; and per target the last transition a webhook was sent for, claimed by one
 * conditional upsert so several instances send a transition once. A row whose JSON no longer
 * parses (edited by hand) is listed with its problem and never evaluated.
 */
export interface StoredTarget {
  id: string;
  target: AlertTarget | null;
  problem: string | null;
  updatedAt: string;
  updatedBy: string;
}
export interface StoredWebhook {
  settings: WebhookSettings;
  updatedAt: string;
  updatedBy: string;
}
export type SendState = 'firing' | 'resolved';

export interface AlertStore {
  listTargets(): Promise<StoredTarget[]>;
  /** Inserts or replaces; answers the target it replaced (null: new). */
  putTarget(t: AlertTarget, by: string): Promise<AlertTarget | null>;
  /** The removed target, or null when there was none. */
  removeTarget(id: string): Promise<AlertTarget | null>;
  getWebhook(): Promise<StoredWebhook | null>;
  putWebhook(w: WebhookSettings, by: string): Promise<void>;
  removeWebhook(): Promise<boolean>;
  /**
   * Records `state` as the target's last transition. Answers the state it replaced (null: the
   * target had none), or `claimed: false` when another process recorded the same state first.
   */
  claimTransition(
    target: string,
    state: SendState,
    at: string,
  ): Promise<{ claimed: boolean; before: SendState | null; sentAt: string | null }>;
  markSent(target: string, at: string): Promise<void>;
}

type TargetRow = { id: string; body: string; updated_at: string; updated_by: string };

function parsed<T>(body: string, schema: z.ZodType<T>): { value: T | null; problem: string | null } {
  try {
    const r = schema.safeParse(JSON.parse(body));
    return r.success ? { value: r.data, problem: null } : { value: null, problem: r.error.issues[0]?.message ?? 'invalid' };
  } catch {
    return { value: null, problem: 'not JSON' };
  }
}

export function createSqlAlertStore(db: Pick<SqlRunner, 'run' | 'all'>): AlertStore {
  const one = async (id: string) =>
    (await db.all<TargetRow>('SELECT id, body, updated_at, updated_by FROM console_alert_targets WHERE id = ?', [id]))[0];
  const upsert = (table: string, key: string) =>
    `INSERT INTO ${table} (${key}, body, updated_at, updated_by) VALUES (?, ?, ?, ?)
     ON CONFLICT (${key}) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at, updated_by = excluded.updated_by`;
  return {
    async listTargets() {
      const rows = await db.all<TargetRow>('SELECT id, body, updated_at, updated_by FROM console_alert_targets ORDER BY id LIMIT 500', []);
      return rows.map((r) => {
        const p = parsed(r.body, ZAlertTarget);
        return { id: r.id, target: p.value, problem: p.problem, updatedAt: r.updated_at, updatedBy: r.updated_by };
      });
    },
    async putTarget(t, by) {
      const was = await one(t.id);
      await db.run(upsert('console_alert_targets', 'id'), [t.id, JSON.stringify(t), new Date().toISOString(), by.slice(0, 500)]);
      return was ? parsed(was.body, ZAlertTarget).value : null;
    },
    async removeTarget(id) {
      const was = await one(id);
      if (!was) return null;
      await db.run('DELETE FROM console_alert_targets WHERE id = ?', [id]);
      await db.run('DELETE FROM console_alert_sends WHERE target = ?', [id]);
      return parsed(was.body, ZAlertTarget).value;
    },
    async getWebhook() {
      const rows = await db.all<TargetRow>(
        "SELECT key AS id, body, updated_at, updated_by FROM console_alert_settings WHERE key = 'webhook'",
        [],
      );
      const r = rows[0];
      const p = r ? parsed(r.body, ZWebhookSettings) : null;
      return r && p?.value ? { settings: p.value, updatedAt: r.updated_at, updatedBy: r.updated_by } : null;
    },
    async putWebhook(w, by) {
      await db.run(upsert('console_alert_settings', 'key'), ['webhook', JSON.stringify(w), new Date().toISOString(), by.slice(0, 500)]);
    },
    async removeWebhook() {
      return (await db.run("DELETE FROM console_alert_settings WHERE key = 'webhook'", [])) > 0;
    },
    async claimTransition(target, state, at) {
      const rows = await db.all<{ state: string; sent_at: string | null }>(
        'SELECT state, sent_at FROM console_alert_sends WHERE target = ?',
        [target],
      );
      const before = rows[0]?.state === 'firing' || rows[0]?.state === 'resolved' ? (rows[0].state as SendState) : null;
      const changed = await db.run(
        `INSERT INTO console_alert_sends (target, state, changed_at) VALUES (?, ?, ?)
         ON CONFLICT (target) DO UPDATE SET state = excluded.state, changed_at = excluded.changed_at
         WHERE console_alert_sends.state <> excluded.state`,
        [target, state, at],
      );
      return { claimed: changed > 0, before, sentAt: rows[0]?.sent_at ?? null };
    },
    async markSent(target, at) {
      await db.run('UPDATE console_alert_sends SET sent_at = ? WHERE target = ?', [at, target]);
    },
  };
}

const KEY = Symbol.for('potatoq.console.alertStore');
type Global = typeof globalThis & { [KEY]?: AlertStore };

/** The store on the console's state store; Internal (nothing saved) when it cannot open. */
export async function getAlertStore(): Promise<AlertStore> {
  const g = globalThis as Global;
  if (g[KEY]) return g[KEY];
  try {
    return createSqlAlertStore(await getStateDb());
  } catch (e) {
    throw new ConsoleError('Internal', `the alert targets (in the console's state store) cannot be opened: ${String(e)}`);
  }
}
