// Where a replay goes. With result_extended, Celery 5.7 stores the delivery's ROUTING KEY as a
// record's `queue` (docs/systems/celery.md, "Differences from the seed facts", row 3): the queue's
// name only for a send through the default exchange. The broker's bindings say which queue a
// routing key leads to; read once per replay call (bounded), resolved per record here.

/** One binding: messages published to `exchange` with `routingKey` go to `queue`. */
export interface QueueBinding {
  exchange: string;
  routingKey: string;
  queue: string;
}

/** The broker's bindings, and whether a name is a queue (a list / a passive declare). */
export interface QueueRoutes {
  bindings: QueueBinding[];
  isQueue(name: string): Promise<boolean>;
}

export type ResolvedQueue = { kind: 'queue'; queue: string; note: string } | { kind: 'several'; queues: string[]; why: string };

const exchangeName = (e: string) => (e === '' ? 'the default exchange' : `exchange ${e}`);

/**
 * A record's `queue` value `r`: a queue, used as is; else the one queue bound under routing key
 * `r` (said in the outcome); several such queues: refused (the caller names them); none: `r` as
 * before, with that said.
 */
export async function resolveReplayQueue(r: string, routes: QueueRoutes): Promise<ResolvedQueue> {
  if (routes.bindings.some((b) => b.queue === r) || (await routes.isQueue(r))) return { kind: 'queue', queue: r, note: '' };
  const via = routes.bindings.filter((b) => b.routingKey === r);
  const queues = [...new Set(via.map((b) => b.queue))].sort();
  if (queues.length === 1) {
    const exchanges = [...new Set(via.map((b) => exchangeName(b.exchange)))].sort().join(', ');
    return { kind: 'queue', queue: queues[0]!, note: ` (bound to routing key ${r} on ${exchanges})` };
  }
  if (queues.length > 1)
    return {
      kind: 'several',
      queues,
      why: `the record's queue ${r} is a routing key bound to several queues (${queues.join(', ')}): use edit and replay to choose the queue`,
    };
  return { kind: 'queue', queue: r, note: ` (no queue is bound to routing key ${r}: it waits there until a worker consumes ${r})` };
}

/** No bindings known (a broker that cannot read them): every record's queue is used as is. */
export const NO_ROUTES: QueueRoutes = { bindings: [], isQueue: async () => true };

/** `read` at most once per `ttlMs` (a move asks per id; the bindings rarely change). */
export function memoRoutes(read: () => Promise<QueueRoutes>, ttlMs = 5_000): () => Promise<QueueRoutes> {
  let last: { at: number; routes: Promise<QueueRoutes> } | null = null;
  return () => {
    if (!last || Date.now() - last.at > ttlMs) {
      const routes = read();
      last = { at: Date.now(), routes };
      routes.catch(() => (last = null));
    }
    return last.routes;
  };
}
