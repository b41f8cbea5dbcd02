'use server';
import type { ActionResult, EnqueueResult, PurgeResult, QueuePauseResult } from '@/lib/brokers/schema';
import type { EditPreview, EditReplayResult, ReplayEditInput } from '@/lib/brokers/schema-edit';
import { respond } from './respond';
import * as ops from './operations';
import { moveDeadOp } from './move';
import { moveWaitingOp } from './move-waiting';
import type { ActionResponse } from './response';

// Server actions for the UI: thin wrappers over the same gated operations as the POST routes.

// `reason` is what the operator typed in the confirmation; the gate requires it for
// destructive actions and records it in the audit trail, with the queue the dialog showed.

export async function replayDeadAction(
  brokerId: string,
  ids: string[],
  reason?: string,
  queue?: string,
): Promise<ActionResponse<ActionResult>> {
  return respond((h) => ops.replayDead(brokerId, { ids, reason, queue }, h));
}

export async function convertAction(
  brokerId: string,
  ids: string[],
  reason?: string,
  queue?: string,
): Promise<ActionResponse<ActionResult>> {
  return respond((h) => ops.convert(brokerId, { ids, reason, queue }, h));
}

/** Dead letters moved to broker `to` (same call model); operator on both, reason required.
 *  `force`: move anyway over an earlier move of a letter that did not finish (confirmed in the UI). */
export async function moveDeadAction(
  brokerId: string,
  to: string,
  ids: string[],
  reason?: string,
  queue?: string,
  force?: boolean,
): Promise<ActionResponse<ActionResult>> {
  return respond((h) => moveDeadOp(brokerId, { to, ids, reason, queue, ...(force ? { force: true } : {}) }, h));
}

/** Waiting tasks moved to broker `to` through call mappings; operator on both, reason required. */
export async function moveWaitingAction(
  brokerId: string,
  to: string,
  ids: string[],
  reason?: string,
  queue?: string,
): Promise<ActionResponse<ActionResult>> {
  return respond((h) => moveWaitingOp(brokerId, { to, ids, reason, queue }, h));
}

export async function discardDeadAction(
  brokerId: string,
  ids: string[],
  reason?: string,
  queue?: string,
): Promise<ActionResponse<ActionResult>> {
  return respond((h) => ops.discardDead(brokerId, { ids, reason, queue }, h));
}

export async function revokeAction(
  brokerId: string,
  ids: string[],
  reason?: string,
  queue?: string,
): Promise<ActionResponse<ActionResult>> {
  return respond((h) => ops.revoke(brokerId, { ids, reason, queue }, h));
}

export async function deleteFamilyAction(
  brokerId: string,
  id: string,
  confirm: string,
  reason?: string,
): Promise<ActionResponse<ActionResult>> {
  return respond((h) => ops.deleteFamily(brokerId, { id, confirm, reason }, h));
}

export async function purgeAction(brokerId: string, queue: string, confirm: string, reason?: string): Promise<ActionResponse<PurgeResult>> {
  return respond((h) => ops.purge(brokerId, { queue, confirm, reason }, h));
}

export async function setQueuePausedAction(
  brokerId: string,
  queue: string,
  paused: boolean,
  reason?: string,
): Promise<ActionResponse<QueuePauseResult>> {
  return respond((h) => ops.setQueuePaused(brokerId, { queue, paused, reason }, h));
}

export async function enqueueAction(brokerId: string, input: Record<string, unknown>): Promise<ActionResponse<EnqueueResult>> {
  return respond((h) => ops.enqueue(brokerId, input, h));
}

/** The message an edited replay would write (nothing written). */
export async function previewReplayEditedAction(brokerId: string, id: string, edit: ReplayEditInput): Promise<ActionResponse<EditPreview>> {
  return respond((h) => ops.previewReplayEdited(brokerId, { ...edit, id }, h));
}

/** One dead letter replayed with edits; `reason` goes into the audit entry with the edit. */
export async function replayEditedAction(
  brokerId: string,
  id: string,
  edit: ReplayEditInput,
  reason: string,
): Promise<ActionResponse<EditReplayResult>> {
  return respond((h) => ops.replayEdited(brokerId, { ...edit, id, reason }, h));
}
