// The audit trail's shapes, shared by the store, the API and the audit page. Client-safe.
import { z } from 'zod';

export type AuditOutcome = 'pending' | 'done' | 'partial' | 'failed' | 'refused';

export interface AuditIdOutcome {
  id: string;
  outcome: string;
  message: string;
}

export interface AuditEntry {
  id: string;
  /** When the action was asked for (ISO). */
  at: string;
  finishedAt: string | null;
  who: string;
  role: string | null;
  via: string | null;
  /** An OIDC user's `sub` and `iss` (the identity behind `who`); null or absent for other modes. */
  subject?: string | null;
  issuer?: string | null;
  action: string;
  broker: string;
  queue: string | null;
  /** The ids asked for (the first MAX_IDS; idsTotal says how many in all). */
  ids: string[];
  idsTotal: number;
  /** Bulk-by-filter actions: the filter and how many ids its snapshot held. */
  filter: Record<string, unknown> | null;
  count: number | null;
  reason: string | null;
  outcome: AuditOutcome;
  code: string | null;
  message: string | null;
  /** Outcome per id (first MAX_IDS). */
  results: AuditIdOutcome[];
  details: Record<string, unknown>;
}

export const MAX_IDS = 10_000;

export const ZAuditQuery = z.object({
  broker: z.string().max(100).optional(),
  action: z.string().max(50).optional(),
  who: z.string().max(200).optional(),
  task: z.string().max(200).optional(),
  queue: z.string().max(200).optional(),
  outcome: z.enum(['pending', 'done', 'partial', 'failed', 'refused']).optional(),
  cursor: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type AuditQuery = z.infer<typeof ZAuditQuery>;

export interface AuditPage {
  entries: AuditEntry[];
  nextCursor: string | null;
}

export interface AuditStore {
  /** Writes the entry (outcome pending until finish). Throws when the store is unavailable. */
  begin(entry: AuditEntry): Promise<void>;
  finish(
    id: string,
    patch: Pick<AuditEntry, 'outcome' | 'code' | 'message' | 'results' | 'details' | 'finishedAt'> &
      Partial<Pick<AuditEntry, 'queue' | 'count'>> & { addIds?: string[] },
  ): Promise<void>;
  list(q: AuditQuery): Promise<AuditPage>;
  /**
   * Binds an OIDC user name to one identity (issuer, subject), first sign-in wins, and answers
   * the identity the name is bound to (the given one, or the earlier one it collides with).
   */
  bindIdentity?(b: Identity): Promise<Identity>;
  close(): Promise<void>;
}

export interface Identity {
  name: string;
  issuer: string;
  subject: string;
}
