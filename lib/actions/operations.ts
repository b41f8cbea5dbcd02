import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import { MAX_IDS_PER_CALL, ZIds } from '@/lib/brokers/schema';
import * as service from '@/lib/brokers/service';
import { ZReason, gate, logIds } from './gate';
import { ZEnqueueInput, ZPauseRequest, ZPurgeRequest } from './schemas';
import { ZReplayEditRequest } from '@/lib/brokers/schema-edit';
import { ZDeleteFamilyRequest } from '@/lib/brokers/family/schema';
import { z } from 'zod';
import { getAuthConfig } from '@/lib/auth/config';
import { fingerprintsBefore, recordCampaign } from '@/lib/campaigns/record';
import { found as campaignOf } from '@/lib/campaigns/service';
import { getCampaignStore } from '@/lib/campaigns/open';
import type { GateContext } from './gate';
import type { ActionResult } from '@/lib/brokers/schema';

/** A write that replays `ids` on `broker`, followed as a campaign (lib/campaigns). */
async function followed(
  broker: string,
  action: string,
  ids: string[],
  ctx: GateContext,
  run: () => Promise<ActionResult>,
): Promise<ActionResult> {
  const before = await fingerprintsBefore(broker, ids);
  const r = await run();
  const who = { who: ctx.principal.user, reason: ctx.reason, auditId: ctx.auditId, parent: null, filter: null };
  const campaign = await recordCampaign({ broker, action, ...who, queues: before.queues }, r.succeeded, before.fps);
  return campaign ? { ...r, campaign } : r;
}

const ZEditWithId = ZReplayEditRequest.extend({ id: z.string().min(1, 'id is required').max(1000) });
const editOf = ({ args, kwargs, queue, priority }: z.output<typeof ZEditWithId>) => {
  // The edit shows the letter's arguments (before/after): not where they are hidden.
  if (getAuthConfig().redactArgs)
    throw new ConsoleError(
      'Forbidden',
      'arguments are hidden on this console (POTATOQ_CONSOLE_REDACT_ARGS), so they cannot be edited here',
    );
  return { args, kwargs, queue, priority };
};

/** The message an edited replay would write; a read (no audit entry, no reason). */
export const previewReplayEdited = (brokerId: string, input: unknown, headers: Headers) =>
  gate({
    action: 'replay-edited-preview',
    brokerId,
    capability: null,
    schema: ZEditWithId,
    input,
    headers,
    reasonRequired: false,
    recorded: false,
    run: (e) => service.previewReplayEdited(brokerId, e.id, editOf(e)),
  });

/** One dead letter replayed with edits; the audit entry holds the edit and the message before/after. */
export const replayEdited = (brokerId: string, input: unknown, headers: Headers) =>
  gate({
    action: 'replay-edited',
    brokerId,
    capability: 'replay',
    schema: ZEditWithId,
    input,
    headers,
    reasonRequired: true,
    target: (e) => ({ ids: [e.id] }),
    run: async (e, ctx) => {
      const before = await fingerprintsBefore(brokerId, [e.id]);
      const r = await service.replayEdited(brokerId, e.id, editOf(e));
      const ok = r.outcome.outcome === 'ok';
      // The task to follow is the one the replay wrote (a new id where the system gives one).
      const task = r.newId ?? e.id;
      const campaign = ok
        ? await recordCampaign(
            {
              broker: brokerId,
              action: 'replay-edited',
              who: ctx.principal.user,
              reason: ctx.reason,
              auditId: ctx.auditId,
              parent: null,
              filter: null,
              // An edit may move the task to another queue: the queue it is replayed to.
              queues: e.queue ? [e.queue] : before.queues,
            },
            [{ id: task }],
            new Map([[task, before.fps.get(e.id) ?? null]]),
          )
        : null;
      return { ...r, succeeded: ok ? [r.outcome] : [], failed: ok ? [] : [r.outcome], ...(campaign ? { campaign } : {}) };
    },
    audit: (e, r) => ({ id: e.id, edit: editOf(e), before: r.before, after: r.after, sameId: r.sameId, newId: r.newId }),
  });

// Each write as one gate call; server actions and POST routes both call these.

export const replayDead = (brokerId: string, input: unknown, headers: Headers) =>
  gate({
    action: 'replay',
    brokerId,
    capability: 'replay',
    schema: ZIds,
    input,
    headers,
    run: ({ ids }, ctx) => followed(brokerId, 'replay', ids, ctx, () => service.replayDead(brokerId, ids)),
    audit: ({ ids }, r) => ({ ...logIds(ids), succeeded: r.succeeded.length, failed: r.failed.length }),
  });

/** Another system's letters rebuilt as this broker's tasks and replayed, where its adapter
 *  declares `actions.convert` (potatoq on RabbitMQ: Celery protocol 2 letters). The audit
 *  trail keeps the action's first name, `convert-celery`, so earlier entries still match. */
export const convert = (brokerId: string, input: unknown, headers: Headers) =>
  gate({
    action: 'convert-celery',
    brokerId,
    capability: 'replay',
    schema: ZIds,
    input,
    headers,
    run: ({ ids }, ctx) => followed(brokerId, 'convert-celery', ids, ctx, () => service.convert(brokerId, ids)),
    audit: ({ ids }, r) => ({ ...logIds(ids), succeeded: r.succeeded.length, failed: r.failed.length }),
  });

export const discardDead = (brokerId: string, input: unknown, headers: Headers) =>
  gate({
    action: 'discard',
    brokerId,
    capability: 'discard',
    schema: ZIds,
    input,
    headers,
    run: ({ ids }) => service.discardDead(brokerId, ids),
    audit: ({ ids }, r) => ({ ...logIds(ids), succeeded: r.succeeded.length, failed: r.failed.length }),
  });

/** A workflow deleted with its whole subtree (`{ id, confirm, reason }`: the id typed again). */
export const deleteFamily = (brokerId: string, input: unknown, headers: Headers) =>
  gate({
    action: 'delete-subtree',
    brokerId,
    capability: 'discard',
    schema: ZDeleteFamilyRequest,
    input,
    headers,
    reasonRequired: true,
    target: ({ id }) => ({ ids: [id] }),
    run: ({ id }) => service.deleteFamily(brokerId, id),
    audit: ({ id }, r) => ({
      ids: [id],
      succeeded: r.succeeded.length,
      failed: r.failed.length,
      outcome: (r.succeeded[0] ?? r.failed[0])?.message,
    }),
  });

export const revoke = (brokerId: string, input: unknown, headers: Headers) =>
  gate({
    action: 'revoke',
    brokerId,
    capability: 'revoke',
    schema: ZIds,
    input,
    headers,
    run: ({ ids }) => service.revoke(brokerId, ids),
    audit: ({ ids }, r) => ({ ...logIds(ids), succeeded: r.succeeded.length, failed: r.failed.length }),
  });

/** `input` is `{ queue, confirm }`; confirm must repeat the queue name exactly. */
export const purge = (brokerId: string, input: unknown, headers: Headers) =>
  gate({
    action: 'purge',
    brokerId,
    capability: 'purge',
    schema: ZPurgeRequest,
    input,
    headers,
    run: ({ queue }) => service.purge(brokerId, queue),
    audit: ({ queue }, r) => ({ queue, removed: r.removed }),
  });

/** `input` is `{ queue, paused }`: holds the queue's work back from its workers, or lets it go. */
export const setQueuePaused = (brokerId: string, input: unknown, headers: Headers) => {
  const paused = !!input && typeof input === 'object' && (input as { paused?: unknown }).paused === true;
  return gate({
    action: paused ? 'pause' : 'resume',
    brokerId,
    capability: 'pause',
    schema: ZPauseRequest,
    input,
    headers,
    run: ({ queue, paused: p }) => service.setQueuePaused(brokerId, queue, p),
    audit: ({ queue }, r) => ({ queue, paused: r.paused }),
  });
};

export const enqueue = (brokerId: string, input: unknown, headers: Headers) =>
  gate({
    action: 'enqueue',
    brokerId,
    capability: 'enqueue',
    schema: ZEnqueueInput,
    input,
    headers,
    run: (req) => service.enqueue(brokerId, req),
    // A write the system answered with an earlier task is recorded as such, not as a second enqueue.
    audit: (req, r) => ({
      queue: r.queue,
      task: req.task,
      ids: [r.id],
      state: r.state,
      ...(r.outcome ? { outcome: r.outcome.outcome } : {}),
    }),
  });

/**
 * The exact message an enqueue would write, without writing it (the id and enqueued_at of the
 * real write will differ). Same validation as enqueue; no capability needed.
 */
export const previewEnqueue = (brokerId: string, input: unknown, headers: Headers) =>
  gate({
    action: 'enqueue-preview',
    brokerId,
    capability: null,
    schema: ZEnqueueInput,
    input,
    headers,
    run: async (req) => {
      if (!service.brokerList().some((b) => b.id === brokerId)) throw new ConsoleError('NotFound', `no broker "${brokerId}" is configured`);
      return service.previewEnqueue(brokerId, req);
    },
  });

const ZReplayAgain = z.object({ reason: ZReason.optional() });

/**
 * "Replay the ones that died again": the letters of the campaign's dead-again tasks (the first
 * MAX_IDS_PER_CALL; each one's letter id as its follow-up recorded it where the broker gives a
 * letter its own id, as QueueFlow does for a job moved into it) replayed on its broker, as a new
 * campaign linked to this one. Same gate, capability and audit as any replay; the error each
 * died of now is the new campaign's before. A second press replays the same letters: the broker
 * refuses each one it replayed already, per id.
 */
export async function replayDeadAgain(id: string, input: unknown, headers: Headers): Promise<ActionResult> {
  const c = await campaignOf(id);
  return gate({
    action: 'replay-again',
    brokerId: c.broker,
    capability: 'replay',
    schema: ZReplayAgain,
    input,
    headers,
    reasonRequired: true,
    target: () => ({ campaign: c.id }),
    run: async (_i, ctx) => {
      const dead = await (await getCampaignStore()).deadAgain(c.id, MAX_IDS_PER_CALL);
      if (!dead.length) throw new ConsoleError('Conflict', 'no task of this campaign died again (as last looked at)');
      const r = await service.replayDead(
        c.broker,
        dead.map((d) => d.id),
      );
      const before = new Map(dead.map((d) => [d.id, d.before]));
      // Its queues are not read again: marked on the broker's charts, not a queue's.
      const by = { who: ctx.principal.user, reason: ctx.reason, auditId: ctx.auditId, parent: c.id, filter: null };
      const campaign = await recordCampaign({ broker: c.broker, action: 'replay-again', ...by }, r.succeeded, before);
      return campaign ? { ...r, campaign } : r;
    },
    audit: (_i, r) => ({
      campaign: c.id,
      ids: r.succeeded.slice(0, 100).map((o) => o.id),
      succeeded: r.succeeded.length,
      failed: r.failed.length,
    }),
  });
}
