import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import { ZIds } from '@/lib/brokers/schema';
import * as service from '@/lib/brokers/service';
import { gate, logIds } from './gate';
import { ZEnqueueInput, ZPauseRequest, ZPurgeRequest } from './schemas';

// Each write as one gate call; server actions and POST routes both call these.

export const replayDead = (brokerId: string, input: unknown, headers: Headers) =>
  gate({
    action: 'replay',
    brokerId,
    capability: 'replay',
    schema: ZIds,
    input,
    headers,
    run: ({ ids }) => service.replayDead(brokerId, ids),
    audit: ({ ids }, r) => ({ ...logIds(ids), succeeded: r.succeeded.length, failed: r.failed.length }),
  });

/** Celery protocol 2 letters rebuilt as potatoq tasks and replayed (brokers that can, e.g. RabbitMQ). */
export const convertCelery = (brokerId: string, input: unknown, headers: Headers) =>
  gate({
    action: 'convert-celery',
    brokerId,
    capability: 'replay',
    schema: ZIds,
    input,
    headers,
    run: ({ ids }) => service.convertCelery(brokerId, ids),
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
    audit: (req, r) => ({ queue: r.queue, task: req.task, ids: [r.id], state: r.state }),
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
