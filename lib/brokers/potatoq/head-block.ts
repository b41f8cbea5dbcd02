import 'server-only';
import { decodePayload } from '@/lib/potatoq';
import type { HeadBlock } from '@/lib/brokers/schema';
import { DecodeMemo } from './decode-memo';

/** Heads bigger than this are not decoded on every overview poll. */
export const HEAD_CHECK_LIMIT = 1024 * 1024;

/**
 * Whether the task a worker would claim next is one potatoq cannot decode. On SQLite 26.1a8
 * rolls the claim back and the worker exits, so the same row kills every worker that
 * starts; on PostgreSQL the claimed row is stranded in `state = 2`. Either way the queue
 * needs an operator, and the overview says so.
 */
export function headBlock(head: { id: string; task: string | null; payload: string | Buffer | null } | undefined): HeadBlock | null {
  if (!head || head.payload === null) return null;
  // Polled: the same heads come back every few seconds, and most are decoded once.
  const found = blockMemo.get(head.payload, () => {
    const decoded = decodePayload(head.payload!);
    return decoded.kind === 'foreign' && decoded.crashesWorkers ? { foreign: decoded.foreign, reason: decoded.reason } : null;
  });
  return found && { id: head.id, task: head.task, foreign: found.foreign, system: 'potatoq', reason: found.reason };
}

const blockMemo = new DecodeMemo<Pick<HeadBlock, 'foreign' | 'reason'> | null>(2000, 16 * 1024);
