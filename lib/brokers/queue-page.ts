// One page of a broker's queues, searched by name: what the queue tables ask for, so a broker
// with thousands of queues sends the browser a page, not all of them. Generic: it slices the
// overview every adapter already answers (one shared read per poll, lib/brokers/read-cache.ts),
// whatever the system. Client-safe: no server imports.
import { z } from 'zod';
import type { BrokerOverview, QueuePage } from './dto';

/** Queues per page when the request does not say. */
export const QUEUE_PAGE_SIZE = 50;

/** GET /api/brokers/:broker/queues?search=&offset=&limit= (any of them asks for a page). */
export const ZQueuePageQuery = z.object({
  search: z
    .string()
    .trim()
    .max(200)
    .optional()
    .transform((v) => (v ? v : undefined)),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(500).default(QUEUE_PAGE_SIZE),
});
export type QueuePageQuery = z.output<typeof ZQueuePageQuery>;

/** Whether the request names any of the page's parameters (else the whole overview answers). */
export const asksForPage = (params: URLSearchParams) => ['search', 'offset', 'limit'].some((k) => params.has(k));

/**
 * The overview with its queues cut to one page: those whose name holds `search` (any case), in
 * the adapter's order, from `offset`, at most `limit`. Totals, workers and everything else stay
 * the broker's whole; `queuePage` says how many queues there are and how many matched.
 */
export function pageQueues(o: BrokerOverview, q: QueuePageQuery): BrokerOverview {
  const needle = q.search?.toLowerCase();
  const matched = needle ? o.queues.filter((x) => x.name.toLowerCase().includes(needle)) : o.queues;
  const page: QueuePage = { offset: q.offset, limit: q.limit, matched: matched.length, total: o.queues.length };
  if (q.search) page.search = q.search;
  return { ...o, queues: matched.slice(q.offset, q.offset + q.limit), queuePage: page };
}
