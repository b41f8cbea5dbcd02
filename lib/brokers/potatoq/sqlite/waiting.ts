import 'server-only';
import type Database from 'better-sqlite3';
import type { TaskCall } from '@/lib/brokers/types';
import { callOfMessage } from '../calls';
import { MOVED_META, revokedRecord } from '../records';
import { STORE_RESULT } from './writes-revoke';

// potatoq's waiting rows (SCHEDULED 0, READY 1; RUNNING 2 is a worker's) leaving as calls
// (lib/brokers/move-waiting.ts). The take is one BEGIN IMMEDIATE: the exact waiting row deleted
// (same id, same message, not claimed) and REVOKED stored with the console's mark, as `potatoq
// revoke` stores it, so find-by-id says where it went and a stopped move can tell it took it.

type Row = { queue: string; payload: string | Buffer; run_at: number };

export function peekWaiting(db: Database.Database, id: string): { call: TaskCall; claim: string } | null {
  const r = db.prepare('SELECT queue, payload, run_at FROM potatoq_jobs WHERE id = ? AND state IN (0, 1)').get(id) as Row | undefined;
  if (!r) return null;
  const raw = typeof r.payload === 'string' ? r.payload : r.payload.toString('utf8');
  return { call: { ...callOfMessage(id, raw, r.queue), etaMs: Math.round(r.run_at * 1000) }, claim: raw };
}

export function takeWaiting(db: Database.Database, id: string, claim: string, resultExpires: number): boolean {
  const del = db.prepare('DELETE FROM potatoq_jobs WHERE id = ? AND state IN (0, 1) AND payload = ? RETURNING task').pluck();
  const store = db.prepare(STORE_RESULT);
  return db
    .transaction(() => {
      const task = del.get(id, claim) as string | undefined;
      if (task === undefined) return false;
      const now = Date.now() / 1000;
      store.run(id, 'REVOKED', revokedRecord(id, now, task, MOVED_META), now + resultExpires);
      return true;
    })
    .immediate();
}

export function tookWaiting(db: Database.Database, id: string): boolean {
  const r = db.prepare("SELECT payload FROM potatoq_results WHERE id = ? AND state = 'REVOKED'").pluck().get(id) as
    string | Buffer | undefined;
  return r !== undefined && String(r).includes(MOVED_META);
}
