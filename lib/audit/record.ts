import 'server-only';
import { randomUUID } from 'node:crypto';
import type { AdapterAuditRecord } from '@/lib/brokers/adapter-context';
import { MAX_IDS, type AuditEntry, type AuditIdOutcome, type AuditOutcome } from './types';

// Turns a gate call (input, principal, result) into an audit entry, generically: ids, queue,
// filter and per-id outcomes are read from the usual shapes so every gated action, including
// ones added later (bulk jobs), is recorded the same way.

const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export interface Who {
  user: string;
  role: string | null;
  via: string | null;
  /** An OIDC user's identity at the provider. */
  sub?: string;
  iss?: string;
}

export function newEntry(args: {
  action: string;
  broker: string;
  who: Who;
  input: unknown;
  reason: string | null;
  extra?: Record<string, unknown>;
}): AuditEntry {
  const input = obj(args.input);
  const extra = args.extra ?? {};
  // A bulk job's ids are its snapshot (`extra.ids`), so each task's history shows the job.
  const idList = Array.isArray(input.ids) ? input.ids : Array.isArray(extra.ids) ? extra.ids : [];
  const ids = idList.filter((x): x is string => typeof x === 'string');
  const filter = obj(extra.filter ?? input.filter);
  return {
    id: randomUUID(),
    at: new Date().toISOString(),
    finishedAt: null,
    who: args.who.user,
    role: args.who.role,
    via: args.who.via,
    subject: args.who.sub ?? null,
    issuer: args.who.iss ?? null,
    action: args.action,
    broker: args.broker,
    queue: str(extra.queue) ?? str(input.queue) ?? (typeof filter.queue === 'string' ? filter.queue : null),
    ids: ids.slice(0, MAX_IDS),
    idsTotal: ids.length,
    filter: Object.keys(filter).length ? filter : null,
    count: num(extra.count) ?? num(extra.snapshotCount) ?? num(input.expectedCount) ?? null,
    reason: args.reason,
    outcome: 'pending',
    code: null,
    message: null,
    results: [],
    details: {},
  };
}

/** An adapter's record of its own work (a recovery) as an entry by the console itself, finished. */
export function consoleEntry(r: AdapterAuditRecord): AuditEntry {
  const entry = newEntry({
    action: r.action,
    broker: r.broker,
    who: { user: 'console', role: null, via: 'recovery' },
    input: { ids: r.ids, queue: r.queue },
    reason: null,
  });
  return {
    ...entry,
    finishedAt: new Date().toISOString(),
    outcome: r.outcome,
    message: r.message,
    results: r.results,
    details: r.details,
  };
}

/** Per-id outcomes from an ActionResult-like value (`succeeded`/`failed` lists). */
export function resultsOf(result: unknown): { results: AuditIdOutcome[]; outcome: AuditOutcome } {
  const r = obj(result);
  const list = (v: unknown, ok: boolean): AuditIdOutcome[] =>
    Array.isArray(v)
      ? v.flatMap((x) => {
          if (typeof x === 'string') return [{ id: x, outcome: ok ? 'ok' : 'error', message: '' }];
          const o = obj(x);
          return typeof o.id === 'string'
            ? [{ id: o.id, outcome: str(o.outcome) ?? (ok ? 'ok' : 'error'), message: str(o.message) ?? '' }]
            : [];
        })
      : [];
  const succeeded = list(r.succeeded, true);
  const failed = list(r.failed, false);
  const outcome: AuditOutcome = failed.length === 0 ? 'done' : succeeded.length === 0 ? 'failed' : 'partial';
  // A single write (an enqueue): its own outcome when it says one (`already`: nothing written).
  const own = obj(r.outcome);
  const enqueued =
    str(r.id) && !succeeded.length && !failed.length
      ? [{ id: r.id as string, outcome: str(own.outcome) ?? 'ok', message: str(own.message) ?? str(r.state) ?? '' }]
      : [];
  return { results: [...failed, ...succeeded, ...enqueued].slice(0, MAX_IDS), outcome };
}
