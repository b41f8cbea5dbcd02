import 'server-only';
import { z } from 'zod';
import { gate } from './gate';
import { ZTaskId } from '@/lib/brokers/schema';
import type { DeadDetail, TaskDetail } from '@/lib/brokers/schema';
import * as service from '@/lib/brokers/service';

export const ZReveal = z.object({ kind: z.enum(['task', 'dead']), ids: z.array(ZTaskId).length(1, 'reveal one task at a time') });

/**
 * The unredacted detail of one task or dead letter (POTATOQ_CONSOLE_REDACT_ARGS): operators
 * only, through the gate, recorded in the audit trail as `reveal` with the id.
 */
export const revealArgs = (brokerId: string, input: unknown, headers: Headers): Promise<TaskDetail | DeadDetail> =>
  gate({
    action: 'reveal',
    brokerId,
    capability: null,
    schema: ZReveal,
    input,
    headers,
    reasonRequired: false,
    run: ({ kind, ids }): Promise<TaskDetail | DeadDetail> =>
      kind === 'task' ? service.getTask(brokerId, ids[0]!) : service.getDead(brokerId, ids[0]!),
    audit: ({ kind }) => ({ kind }),
  });
