import 'server-only';
import { ZDeadListQuery, ZTaskListQuery } from '@/lib/brokers/schema';
import * as service from '@/lib/brokers/service';
import { moveDead } from '@/lib/brokers/move';
import { moveWaiting } from '@/lib/brokers/move-waiting';
import type { ReplayPace } from '@/lib/brokers/types';
import { onTasks, type BulkAction, type BulkFilter } from './schema';
import type { BulkBackend } from './snapshot';

/** The real backend of a job: the service's lists for the snapshot, its writes per batch. */
export function serviceBackend(brokerId: string, action: BulkAction, filter: BulkFilter): BulkBackend {
  // since/until are the instants the job froze at its creation (lib/bulk/schema.ts).
  const { queue, task, id, q, group, state, since, until } = filter;
  const whole = action === 'replay' && service.pacesReplay(brokerId);
  return {
    // A one-pass replay takes its snapshot in one pass too: every matching letter, not the list's browse window.
    ...(whole
      ? {
          actAll: (ids: string[], pace: ReplayPace) => service.replayDeadPaced(brokerId, ids, pace),
          listAll: (cap: number) => service.deadIds(brokerId, { queue, task, id, q, group, since, until }, cap),
        }
      : {}),
    async listPage(cursor, limit) {
      const page = onTasks(action)
        ? await service.listTasks(brokerId, ZTaskListQuery.parse({ state, queue, task, id, q, since, until, cursor, limit }))
        : await service.listDead(brokerId, ZDeadListQuery.parse({ queue, task, id, q, group, since, until, cursor, limit }));
      return { ids: page.items.map((i) => i.id), nextCursor: page.nextCursor, searchedNewest: page.searchedNewest };
    },
    act(ids, job) {
      // A move's journal and ledger name the job and who started it.
      const by = { by: `bulk move job ${job?.id ?? '?'} (started by ${job?.by ?? 'unknown'})`, auditId: job?.auditId ?? null };
      switch (action) {
        case 'replay':
          return service.replayDead(brokerId, ids);
        case 'discard':
          return service.discardDead(brokerId, ids);
        case 'revoke':
          return service.revoke(brokerId, ids);
        case 'move':
          return moveDead(brokerId, filter.to ?? '', ids, by);
        case 'move-waiting':
          return moveWaiting(brokerId, filter.to ?? '', ids, by);
        default: {
          const never: never = action;
          throw new Error(`unknown bulk action ${String(never)}`);
        }
      }
    },
  };
}
