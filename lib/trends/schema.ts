// Trends: the inputs (zod, the routes validate with them) and the answers (zod too: the TS
// types are inferred from them and the OpenAPI description converts the same schemas, so the
// description cannot drift from what the route returns). Client-safe: no server imports.
import { z } from 'zod';
import { ZTimeBound } from '@/lib/brokers/time-range';

export { bucketTimes, rangeWindow, TREND_RANGES, trendWindow, type TrendRange } from './ranges';

export const ZTrendRange = z
  .enum(['hour', 'day', 'week'])
  .default('day')
  .describe('the window: hour (1-minute buckets), day (15-minute), week (1-hour)');

const ZOptionalText = (max: number) =>
  z
    .string()
    .max(max)
    .optional()
    .transform((v) => v || undefined);

export const ZDeadTrendQuery = z.object({
  range: ZTrendRange,
  queue: ZOptionalText(500).describe("only this queue's letters"),
  group: ZOptionalText(2000).describe("only this dead-letter group's letters (a fingerprint of /dead/groups)"),
  /** A list's time range: the window follows it instead of `range` (lib/trends/ranges.ts `rangeWindow`). */
  since: ZTimeBound,
  until: ZTimeBound,
});
export type DeadTrendQuery = z.infer<typeof ZDeadTrendQuery>;

export const ZQueueTrendQuery = z.object({
  range: ZTrendRange,
  queue: ZOptionalText(500).describe('one queue; absent: the broker as a whole'),
});
export type QueueTrendQuery = z.infer<typeof ZQueueTrendQuery>;

const iso = z.string().describe('ISO 8601 time');
const bucketCount = z.number().int().min(0);
const window = {
  range: z.enum(['hour', 'day', 'week']),
  /** Bucket i covers [from + i·bucketSeconds, from + (i+1)·bucketSeconds). */
  from: iso.describe('start of the first bucket'),
  to: iso.describe('end of the last bucket'),
  bucketSeconds: z.number().int().min(1),
};

export const ZDeadTrend = z
  .object({
    ...window,
    counts: z
      .array(bucketCount)
      .describe(
        "letters that died in each bucket, oldest bucket first: the higher of the broker's own count of the letters it keeps and the deaths the console recorded",
      ),
    recorded: z
      .array(bucketCount)
      .nullable()
      .describe(
        'deaths the console recorded in each bucket as it saw them (kept after the letters are replayed or discarded); null when the state store could not be read',
      ),
    campaigns: z
      .array(z.object({ id: z.string(), at: iso, action: z.string(), count: z.number().int().min(0) }))
      .describe("this broker's campaigns (replays, moves, bulk jobs) that began in the window, oldest first, at most 50"),
    total: bucketCount.describe('sum of counts'),
    clamped: z
      .literal(true)
      .optional()
      .describe('set when `since` was earlier than a chart reaches back (a week): the window starts a week before its end'),
    undated: bucketCount.describe('matching letters the broker keeps no died time for (in no bucket)'),
    scannedNewest: z
      .number()
      .int()
      .nullable()
      .describe(
        'set when only N letters were looked at (a group filter on a large store: the newest; Celery: the first N result records a SCAN returns); null when all were',
      ),
  })
  .meta({ id: 'DeadTrend', description: 'Dead letters per time bucket, from the died times the broker itself keeps.' });
export type DeadTrend = z.infer<typeof ZDeadTrend>;

const sampled = z.array(z.number().min(0).nullable()).describe('the highest sampled value in each bucket; null: no sample there');
export const ZQueueTrend = z
  .object({
    ...window,
    queue: z.string().nullable().describe('the queue, or null for the broker as a whole'),
    sampling: z.object({
      on: z.boolean(),
      intervalSeconds: z.number().int().nullable(),
      why: z.string().optional().describe('why no samples are taken, when off'),
    }),
    depth: sampled.describe(
      "tasks in the broker's waiting state (the one that plays `waiting`; else its first declared) — the highest sample in each bucket",
    ),
    oldestSeconds: sampled.describe('age of the oldest waiting task — the highest sample in each bucket'),
    dead: sampled.describe('dead letters kept — the highest sample in each bucket'),
    depthAtLeast: z
      .array(z.boolean())
      .describe("true where a depth sample of the bucket was a lower bound (the console stopped counting at the broker's cap)"),
    deadAtLeast: z.array(z.boolean()).describe('true where a dead-letter sample of the bucket was a lower bound'),
  })
  .meta({ id: 'QueueTrend', description: 'Queue depth, oldest-waiting age and dead letters over time, as sampled by the console.' });
export type QueueTrend = z.infer<typeof ZQueueTrend>;
