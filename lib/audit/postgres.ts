import 'server-only';
import { borrowOrOpen, type PostgresHandle } from '@/lib/state/handle';
import { rowToEntry, whereOf } from './sqlite';
import { bindingKey } from './schema';
import type { AuditEntry, AuditPage, AuditStore, Identity } from './types';

// The audit trail in PostgreSQL, for several console instances sharing one trail. Same tables
// and queries as the SQLite store; JSON columns are text so both stores map rows alike.

const numbered = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

/** The trail on the state store's pool, or on a pool of its own for `url` (ended by `close`). */
export function createPostgresAuditStore(url: string | PostgresHandle): AuditStore {
  const { handle, owned } = borrowOrOpen(url, 'postgres');
  const pool = handle.pool;
  // The schema is the state store's (lib/state/migrate.ts), brought up to date once per handle.
  const ensure = () => handle.ready();
  return {
    async begin(e: AuditEntry) {
      await ensure();
      const c = await pool.connect();
      try {
        await c.query('BEGIN');
        const r = await c.query<{ seq: string }>(
          `INSERT INTO console_audit (id, at, finished_at, who, role, via, action, broker, queue, ids, ids_total, filter, count, reason, outcome, code, message, results, details, subject, issuer)
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21) RETURNING seq`,
          [
            e.id,
            e.at,
            e.finishedAt,
            e.who,
            e.role,
            e.via,
            e.action,
            e.broker,
            e.queue,
            JSON.stringify(e.ids),
            e.idsTotal,
            e.filter ? JSON.stringify(e.filter) : null,
            e.count,
            e.reason,
            e.outcome,
            e.code,
            e.message,
            JSON.stringify(e.results),
            JSON.stringify(e.details),
            e.subject ?? null,
            e.issuer ?? null,
          ],
        );
        if (e.ids.length) {
          await c.query('INSERT INTO console_audit_ids (audit_seq, broker, task_id) SELECT $1, $2, unnest($3::text[])', [
            r.rows[0]!.seq,
            e.broker,
            e.ids,
          ]);
        }
        await c.query('COMMIT');
      } catch (err) {
        await c.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        c.release();
      }
    },
    async finish(id, p) {
      await ensure();
      if (p.addIds?.length) {
        await pool.query(
          `WITH a AS (UPDATE console_audit SET ids = (ids::jsonb || $2::jsonb)::text, ids_total = ids_total + $3 WHERE id = $1 RETURNING seq, broker)
           INSERT INTO console_audit_ids (audit_seq, broker, task_id) SELECT a.seq, a.broker, unnest($4::text[]) FROM a`,
          [id, JSON.stringify(p.addIds), p.addIds.length, p.addIds],
        );
      }
      await pool.query(
        `UPDATE console_audit SET outcome = $2, code = $3, message = $4, results = $5, details = $6, finished_at = $7,
           queue = COALESCE($8, queue), count = COALESCE($9, count) WHERE id = $1`,
        [
          id,
          p.outcome,
          p.code,
          p.message,
          JSON.stringify(p.results),
          JSON.stringify(p.details),
          p.finishedAt,
          p.queue ?? null,
          p.count ?? null,
        ],
      );
    },
    async list(q): Promise<AuditPage> {
      await ensure();
      const w = whereOf(q);
      const r = await pool.query(numbered(`SELECT * FROM console_audit ${w.sql} ORDER BY seq DESC LIMIT ?`), [...w.args, q.limit + 1]);
      const more = r.rows.length > q.limit;
      const page = r.rows.slice(0, q.limit) as Array<Record<string, unknown>>;
      return { entries: page.map(rowToEntry), nextCursor: more ? String(page[page.length - 1]!.seq) : null };
    },
    async bindIdentity(b: Identity): Promise<Identity> {
      await ensure();
      const key = bindingKey(b.name);
      await pool.query(
        'INSERT INTO console_oidc_users (name, issuer, subject, bound_at) VALUES ($1, $2, $3, $4) ON CONFLICT (name) DO NOTHING',
        [key, b.issuer, b.subject, new Date().toISOString()],
      );
      const r = await pool.query<{ issuer: string; subject: string }>('SELECT issuer, subject FROM console_oidc_users WHERE name = $1', [
        key,
      ]);
      return { name: b.name, issuer: r.rows[0]!.issuer, subject: r.rows[0]!.subject };
    },
    async close() {
      if (owned) await handle.close();
    },
  };
}
