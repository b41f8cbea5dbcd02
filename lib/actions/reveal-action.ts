'use server';
import { headers } from 'next/headers';
import type { ActionResponse } from '@/lib/actions/response';
import type { DeadDetail, TaskDetail } from '@/lib/brokers/schema';
import { toConsoleError } from '@/lib/brokers/service';
import { revealArgs } from './reveal';

export async function revealArgsAction(
  brokerId: string,
  kind: 'task' | 'dead',
  id: string,
): Promise<ActionResponse<TaskDetail | DeadDetail>> {
  try {
    return { ok: true, data: await revealArgs(brokerId, { kind, ids: [id] }, await headers()) };
  } catch (e) {
    const err = toConsoleError(e);
    return { ok: false, error: { code: err.code, message: err.message } };
  }
}
