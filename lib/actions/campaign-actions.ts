'use server';
import type { ActionResult } from '@/lib/brokers/schema';
import { replayDeadAgain } from './operations';
import { respond } from './respond';
import type { ActionResponse } from './response';

/** "Replay the ones that died again" of campaign `id`: a new campaign linked to it (reason required). */
export async function replayDeadAgainAction(id: string, reason: string): Promise<ActionResponse<ActionResult>> {
  return respond((h) => replayDeadAgain(id, { reason }, h));
}
