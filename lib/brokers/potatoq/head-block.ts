import 'server-only';
import { decodePayload } from '@/lib/potatoq';
import type { HeadBlock } from '@/lib/brokers/schema';

/** Heads bigger than this are not decoded on every overview poll. */
export const HEAD_CHECK_LIMIT = 1024 * 1024;

/**
 * Whether the task a worker would claim next is one potatoq cannot decode. On SQLite 26.1a8
 * rolls the claim back and the worker exits, so the same row kills every worker that
 * starts; on PostgreSQL the claimed row is stranded in `state = 2`. Either way the queue
 * needs an operator, and the overview says so.
 */
export function headBlock(head: { id: string; task: string; payload: string | Buffer | null } | undefined): HeadBlock | null {
  if (!head || head.payload === null) return null;
  const decoded = decodePayload(head.payload);
  if (decoded.kind !== 'foreign' || !decoded.crashesWorkers) return null;
  return { id: head.id, task: head.task, foreign: decoded.foreign, system: 'potatoq', reason: decoded.reason };
}
