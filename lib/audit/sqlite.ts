import 'server-only';
import { borrowOrOpen, type SqliteHandle } from '@/lib/state/handle';
import { bindingKey } from './schema';
import type { AuditEntry, AuditPage, AuditQuery, AuditStore, Identity } from './types';

// The audit trail in the console's own SQLite state file (one console instance), on the state
// store's one handle (lib/state), whose schema steps made its tables.

type Row = Record<string, unknown>;

export function rowToEntry(r: Row): AuditEntry {
  const j = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);
  return {
    id: String(r.id),
    at: String(r.at),
    finishedAt: (r.finished_at as string | null) ?? null,
    who: String(r.who),
    role: (r.role as string | null) ?? null,
    via: (r.via as string | null) ?? null,
    subject: (r.subject as string | null) ?? null,
    issuer: (r.issuer as string | null) ?? null,
    action: String(r.action),
    broker: String(r.broker),
    queue: (r.queue as string | null) ?? null,
    ids: j(r.ids) as string[],
    idsTotal: Number(r.ids_total),
    filter: (j(r.filter) as Record<string, unknown> | null) ?? null,
    count: r.count === null || r.count === undefined ? null : Number(r.count),
    reason: (r.reason as string | null) ?? null,
    outcome: r.outcome as AuditEntry['outcome'],
    code: (r.code as string | null) ?? null,
    message: (r.message as string | null) ?? null,
    results: j(r.results) as AuditEntry['results'],
    details: j(r.details) as Record<string, unknown>,
  };
}

/** WHERE clause shared by both stores; `?` placeholders, renumbered for PostgreSQL. */
export function whereOf(q: AuditQuery): { sql: string; args: unknown[] } {
  const parts: string[] = [];
  const args: unknown[] = [];
  const add = (sql: string, ...a: unknown[]) => {
    parts.push(sql);
    args.push(...a);
  };
  if (q.broker) add('broker = ?', q.broker);
  if (q.action) add('action = ?', q.action);
  if (q.who) add('who = ?', q.who);
  if (q.queue) add('queue = ?', q.queue);
  if (q.outcome) add('outcome = ?', q.outcome);
  if (q.task) {
    add(
      q.broker
        ? 'seq IN (SELECT audit_seq FROM console_audit_ids WHERE broker = ? AND task_id = ?)'
        : 'seq IN (SELECT audit_seq FROM console_audit_ids WHERE task_id = ?)',
      ...(q.broker ? [q.broker, q.task] : [q.task]),
    );
  }
  if (q.cursor) add('seq < ?', q.cursor);
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', args };
}

/** The trail on the state store's handle, or on a file of its own (`file`, closed by `close`). */
export function createSqliteAuditStore(file: string | SqliteHandle): AuditStore {
  const { handle, owned } = borrowOrOpen(file, 'sqlite');
  const db = handle.db;
  const insert = db.prepare(
    `INSERT INTO console_audit (id, at, finished_at, who, role, via, subject, issuer, action, broker, queue, ids, ids_total, filter, count, reason, outcome, code, message, results, details)
     VALUES (@id, @at, @finishedAt, @who, @role, @via, @subject, @issuer, @action, @broker, @queue, @ids, @idsTotal, @filter, @count, @reason, @outcome, @code, @message, @results, @details)`,
  );
  const insertId = db.prepare('INSERT INTO console_audit_ids (audit_seq, broker, task_id) VALUES (?, ?, ?)');
  const begin = db.transaction((e: AuditEntry) => {
    const info = insert.run({
      ...e,
      subject: e.subject ?? null,
      issuer: e.issuer ?? null,
      ids: JSON.stringify(e.ids),
      filter: e.filter ? JSON.stringify(e.filter) : null,
      results: JSON.stringify(e.results),
      details: JSON.stringify(e.details),
    });
    for (const id of e.ids) insertId.run(info.lastInsertRowid, e.broker, id);
  });
  const bind = db.prepare(
    'INSERT INTO console_oidc_users (name, issuer, subject, bound_at) VALUES (?, ?, ?, ?) ON CONFLICT (name) DO NOTHING',
  );
  const bound = db.prepare('SELECT issuer, subject FROM console_oidc_users WHERE name = ?');
  const finish = db.prepare(
    `UPDATE console_audit SET outcome = @outcome, code = @code, message = @message, results = @results, details = @details,
       finished_at = @finishedAt, queue = COALESCE(@queue, queue), count = COALESCE(@count, count) WHERE id = @id`,
  );
  return {
    async begin(e) {
      begin(e);
    },
    async finish(id, p) {
      const { addIds = [], ...rest } = p;
      db.transaction(() => {
        finish.run({
          id,
          ...rest,
          queue: p.queue ?? null,
          count: p.count ?? null,
          results: JSON.stringify(p.results),
          details: JSON.stringify(p.details),
        });
        if (!addIds.length) return;
        const row = db.prepare('SELECT seq, broker, ids FROM console_audit WHERE id = ?').get(id) as
          { seq: number; broker: string; ids: string } | undefined;
        if (!row) return;
        const ids = [...(JSON.parse(row.ids) as string[]), ...addIds];
        db.prepare('UPDATE console_audit SET ids = ?, ids_total = ? WHERE seq = ?').run(JSON.stringify(ids), ids.length, row.seq);
        for (const t of addIds) insertId.run(row.seq, row.broker, t);
      })();
    },
    async list(q): Promise<AuditPage> {
      const w = whereOf(q);
      const rows = db.prepare(`SELECT * FROM console_audit ${w.sql} ORDER BY seq DESC LIMIT ?`).all(...w.args, q.limit + 1) as Row[];
      const more = rows.length > q.limit;
      const page = rows.slice(0, q.limit);
      return { entries: page.map(rowToEntry), nextCursor: more ? String(page[page.length - 1]!.seq) : null };
    },
    async bindIdentity(b: Identity): Promise<Identity> {
      const key = bindingKey(b.name);
      bind.run(key, b.issuer, b.subject, new Date().toISOString());
      const row = bound.get(key) as { issuer: string; subject: string };
      return { name: b.name, issuer: row.issuer, subject: row.subject };
    },
    async close() {
      if (owned) await handle.close();
    },
  };
}
