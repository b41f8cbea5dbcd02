import 'server-only';
import { getAuditStore } from '@/lib/audit/store';
import { ConsoleError } from './errors';
import { getMappingStore } from './mapping/store';
import { moveTargets } from './move';
import { migrationRows, tally, type SideTally } from './migration';
import type { MigrationView } from './migration-schema';
import { stateOfRole } from './model';
import { getMovesLedger } from './moves-ledger';
import { findBrokerConfig, getAdapter } from './registry';
import { ZDeadListQuery, ZTaskListQuery } from './schema';
import { listDead, listTasks, toConsoleError } from './service';

/**
 * The migration view of a pair of brokers (docs/migrating-to-queueflow.md, "The migration
 * view"): every read bounded (CAP items per state, pages of PAGE), a capped count shown as "at
 * least", a side that cannot be read shown with why and no counts. Read-only, nothing changes.
 */

const PAGE = 500;
export const CAP = 2000;
const MOVES = 500;
const ACTIONS = 20;

type Pager<T> = (cursor: string | undefined) => Promise<{ items: T[]; nextCursor: string | null; window?: string }>;

/** Pages through `page` until its end or CAP items: calls `each` per item; whether it was cut. */
async function walk<T>(page: Pager<T>, each: (item: T) => void, notes: string[]): Promise<boolean> {
  let cursor: string | undefined;
  for (let n = 0; ;) {
    const p = await page(cursor);
    p.items.forEach(each);
    n += p.items.length;
    if (p.window) notes.push(p.window);
    if (!p.nextCursor) return !!p.window;
    if (n >= CAP) return true;
    cursor = p.nextCursor;
  }
}

/** One side's counts; `target`: also its dead letters no worker had a handler for. */
async function tallySide(brokerId: string, notes: string[], target: boolean): Promise<SideTally> {
  const adapter = getAdapter(brokerId);
  const out: SideTally = { waiting: new Map(), dead: new Map(), noHandler: null, waitingCapped: false, deadCapped: false };
  const lacks = target ? adapter.lacksHandler?.bind(adapter) : undefined;
  if (lacks) out.noHandler = new Map();
  else if (target) notes.push('its system does not tell letters that found no handler from other failures');
  const states = [stateOfRole(adapter.model.states, 'waiting'), stateOfRole(adapter.model.states, 'scheduled')].flatMap((s) =>
    s ? [s] : [],
  );
  let read = 0;
  for (const s of states) {
    try {
      const cut = await walk(
        (cursor) => listTasks(brokerId, ZTaskListQuery.parse({ state: s.key, limit: PAGE, cursor })),
        (t) => tally(out.waiting!, t.task),
        notes,
      );
      read++;
      if (cut) notes.push(`${s.label ?? s.key}: counted the first ${CAP} tasks; there may be more`);
      out.waitingCapped ||= cut;
    } catch (e) {
      notes.push(`${s.label ?? s.key} tasks could not be counted: ${toConsoleError(e).message}`);
    }
  }
  if (read === 0) out.waiting = null;
  try {
    out.deadCapped = await walk(
      (cursor) => listDead(brokerId, ZDeadListQuery.parse({ limit: PAGE, cursor })),
      (d) => {
        tally(out.dead!, d.task);
        if (lacks?.(d)) tally(out.noHandler!, d.task);
      },
      notes,
    );
    if (out.deadCapped) notes.push(`dead letters: counted the newest ${CAP}; there may be more`);
  } catch (e) {
    out.dead = null;
    out.noHandler = null;
    notes.push(`dead letters could not be counted: ${toConsoleError(e).message}`);
  }
  return out;
}

const num = (v: unknown) => (typeof v === 'number' ? v : null);

/** The move actions from `from` to `to` in `from`'s audit trail, newest first (the last pages). */
async function moveActions(from: string, to: string): Promise<MigrationView['actions']> {
  const page = await (await getAuditStore()).list({ broker: from, action: 'move', limit: 200 });
  return page.entries
    .filter((e) => e.details.to === to)
    .slice(0, ACTIONS)
    .map((e) => ({
      auditId: e.id,
      at: e.at,
      who: e.who,
      outcome: e.outcome,
      succeeded: num(e.details.succeeded),
      failed: num(e.details.failed),
      reason: e.reason,
      failures: e.results.filter((r) => r.outcome !== 'ok' && r.outcome !== 'already').slice(0, 20),
    }));
}

export async function migrationView(fromId: string, toId: string): Promise<MigrationView> {
  if (fromId === toId) throw new ConsoleError('InvalidInput', 'to: name another broker than this one', { to: 'another broker' });
  const [from, to] = [findBrokerConfig(fromId), findBrokerConfig(toId)];
  const sourceNotes: string[] = [];
  const targetNotes: string[] = [];
  const [pairing, source, target, mappings, ledger, actions] = await Promise.all([
    moveTargets(fromId).then((ts) => ts.find((t) => t.id === toId)?.pairing),
    tallySide(fromId, sourceNotes, false),
    tallySide(toId, targetNotes, true),
    getMappingStore().then((s) => s.list({ source: fromId, target: toId })),
    getMovesLedger().then((l) => l.pair(fromId, toId, MOVES)),
    moveActions(fromId, toId),
  ]);
  const rows = migrationRows(
    source,
    target,
    mappings.map((m) => ({ task: m.mapping.task, targetTask: m.mapping.targetTask ?? null })),
    ledger.moves,
  );
  return {
    source: { id: fromId, name: from.name, notes: sourceNotes },
    target: { id: toId, name: to.name, notes: targetNotes },
    pairing: pairing?.on ? { on: true, words: pairing.does } : { on: false, words: pairing?.why ?? 'not offered' },
    rows,
    moves: {
      entries: ledger.moves.map((m) => ({
        sourceId: m.sourceId,
        targetId: m.targetId,
        task: m.task,
        outcome: m.outcome,
        at: m.at,
        who: m.who,
        auditId: m.auditId,
      })),
      capped: ledger.capped,
    },
    actions,
  };
}
