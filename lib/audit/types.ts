// The audit trail's shapes, shared by the store, the API and the audit page. Client-safe.
import { z } from 'zod';

// One zod definition per answer, the type inferred (docs/architecture.md).
export const ZAuditOutcome = z.enum(['pending', 'done', 'partial', 'failed', 'refused']);
export type AuditOutcome = z.infer<typeof ZAuditOutcome>;

export const ZAuditIdOutcome = z.strictObject({ id: z.string(), outcome: z.string(), message: z.string() });
export type AuditIdOutcome = z.infer<typeof ZAuditIdOutcome>;

export const ZAuditEntry = z
  .strictObject({
    id: z.string(),
    /** When the action was asked for (ISO). */
    at: z.string().describe('ISO 8601 time the action was asked for'),
    finishedAt: z.string().nullable(),
    who: z.string(),
    role: z.string().nullable(),
    via: z.string().nullable(),
    /** An OIDC user's `sub` and `iss` (the identity behind `who`); null or absent for other modes. */
    subject: z.string().nullable().optional(),
    issuer: z.string().nullable().optional(),
    action: z.string(),
    broker: z.string(),
    queue: z.string().nullable(),
    /** The ids asked for (the first MAX_IDS; idsTotal says how many in all). */
    ids: z.array(z.string()),
    idsTotal: z.number().int(),
    /** Bulk-by-filter actions: the filter and how many ids its snapshot held. */
    filter: z.record(z.string(), z.unknown()).nullable(),
    count: z.number().int().nullable(),
    reason: z.string().nullable(),
    outcome: ZAuditOutcome,
    code: z.string().nullable(),
    message: z.string().nullable(),
    /** Outcome per id (first MAX_IDS). */
    results: z.array(ZAuditIdOutcome),
    details: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof ZAuditEntry>;

export const MAX_IDS = 10_000;

export const ZAuditQuery = z.object({
  broker: z.string().max(100).optional(),
  action: z.string().max(50).optional(),
  who: z.string().max(200).optional(),
  task: z.string().max(200).optional(),
  queue: z.string().max(200).optional(),
  outcome: ZAuditOutcome.optional(),
  cursor: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type AuditQuery = z.infer<typeof ZAuditQuery>;

export const ZAuditPage = z.strictObject({ entries: z.array(ZAuditEntry), nextCursor: z.string().nullable() }).meta({ id: 'AuditPage' });
export type AuditPage = z.infer<typeof ZAuditPage>;

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
