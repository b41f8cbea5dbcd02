import { SNAPSHOT_CAP } from './schema';

/** One keyset page of the ids matching the job's filter, in the list's own order. */
export interface IdPage {
  ids: string[];
  nextCursor: string | null;
  searchedNewest?: number;
}

/** The job a batch is for: a move's journal names it, and who started or resumed it. */
export interface ActingJob {
  id: string;
  auditId: string | null;
  by: string | null;
}

export interface BulkBackend {
  /** Pages through the broker's list with the operator's filter (listDead / listTasks). */
  listPage(cursor: string | undefined, limit: number): Promise<IdPage>;
  /** One batch through the service (replayDead / discardDead / revoke / moveDead), for `job`. */
  act(ids: string[], job?: ActingJob): Promise<import('@/lib/brokers/schema').ActionResult>;
  /** All the remaining ids in one call, steered by the job (pause, cancel, rate, progress):
   *  where the broker does one pass better than a call per batch (`replayDeadPaced`). */
  actAll?(ids: string[], pace: import('@/lib/brokers/types').ReplayPace): Promise<import('@/lib/brokers/schema').ActionResult>;
  /** Every matching id (at most `cap`) in one pass, where the broker has it (`deadIds`); null: page instead. */
  listAll?(cap: number): Promise<{ ids: string[]; capped: boolean } | null>;
}

export interface Snapshot {
  ids: string[];
  capped: boolean;
  searchedNewest: number | null;
  at: Date;
}

/** Largest page the list endpoints accept (ZLimit max). */
const PAGE = 500;

/**
 * Captures the ids matching the filter right now. The job later acts on exactly these ids:
 * rows added afterwards are never touched, rows gone by their batch come back as skipped.
 * Keyset paging never repeats a row; the Set guards against a broker that would.
 */
export async function takeSnapshot(backend: BulkBackend, cap = SNAPSHOT_CAP): Promise<Snapshot> {
  const at = new Date();
  const all = backend.listAll ? await backend.listAll(cap) : null;
  if (all) return { ids: all.ids, capped: all.capped, searchedNewest: null, at };
  const seen = new Set<string>();
  let cursor: string | undefined;
  let searchedNewest: number | null = null;
  let capped = false;
  for (;;) {
    const page = await backend.listPage(cursor, Math.min(PAGE, cap - seen.size + 1));
    if (page.searchedNewest !== undefined) searchedNewest = page.searchedNewest;
    for (const id of page.ids) {
      if (seen.size >= cap) {
        capped = true;
        break;
      }
      seen.add(id);
    }
    if (capped || page.nextCursor === null) break;
    if (seen.size >= cap) {
      capped = true;
      break;
    }
    cursor = page.nextCursor;
  }
  return { ids: [...seen], capped, searchedNewest, at };
}
