import 'server-only';
import { z } from 'zod';
import { ZCallMapping, ZMappingExport, ZStoredMapping } from '@/lib/brokers/mapping/schema';
import { ZMigrationView } from '@/lib/brokers/migration-schema';
import type { Route } from './openapi-route';

// Call mappings between call models and the move preview (docs/migrating-to-queueflow.md).

const ZValueJob = z.object({
  sourceId: z.string(),
  key: z.string().describe("the target's idempotency key, derived from the letter's id"),
  task: z.string(),
  queue: z.string(),
  payload: z.record(z.string(), z.unknown()),
  priority: z.number().nullable(),
  runAt: z.string().nullable(),
  retry: z.object({ maxRetries: z.number().optional(), backoff: z.string().optional(), delaySecs: z.number().optional() }),
});
const ZPreviewItem = z.object({
  id: z.string(),
  source: z.record(z.string(), z.unknown()).nullable(),
  job: ZValueJob.nullable(),
  letter: z
    .object({ jobId: z.string(), task: z.string(), queue: z.string(), payload: z.unknown(), priority: z.number().nullable() })
    .nullable()
    .optional()
    .describe('the way back: the job here (its named payload); `source` and `job` are then null'),
  call: z
    .object({ id: z.string(), task: z.string(), queue: z.string(), args: z.string(), kwargs: z.string(), priority: z.number().nullable() })
    .nullable()
    .optional()
    .describe("the way back: the exact call it becomes (args, kwargs as Python reprs; id: the job's id)"),
  problems: z.record(z.string(), z.string()).describe('by where in the letter (`args[2]`, `kwargs.when`, `task`); empty: it can move'),
  notCarried: z.array(z.string()),
  notes: z.array(z.string()),
});

export const mappingRoutes = (e: { writer: number[]; readerOfBroker: number[]; readerOfState: number[] }): Route[] => [
  {
    method: 'get',
    path: '/api/brokers/{broker}/migration',
    tag: 'migration',
    access: 'reader',
    summary:
      'The migration view of this broker and `to`: per task name, waiting and dead counts on each side (bounded reads: `atLeast` where capped), mapped names, dead letters no target worker had a handler for, and the moves done',
    query: z.object({ to: z.string() }),
    ok: ZMigrationView,
    errors: e.readerOfState,
  },
  {
    method: 'get',
    path: '/api/brokers/{broker}/mappings',
    tag: 'migration',
    access: 'reader',
    summary: 'The call mappings from this broker (`?to=` one target), by task name',
    query: z.object({ to: z.string().optional() }),
    ok: z.array(ZStoredMapping),
    errors: e.readerOfState,
  },
  {
    method: 'post',
    path: '/api/brokers/{broker}/mappings',
    tag: 'migration',
    access: 'operator',
    summary: "Save the call mapping of one task name from this broker to `target` (replaces the task's earlier one); audited",
    body: ZCallMapping,
    ok: z.object({ saved: ZCallMapping, before: ZCallMapping.nullable() }),
    errors: e.writer,
  },
  {
    method: 'post',
    path: '/api/brokers/{broker}/mappings/remove',
    tag: 'migration',
    access: 'operator',
    summary: 'Remove the call mapping of `task` to `target`; audited',
    body: z.object({ target: z.string(), task: z.string() }),
    ok: z.object({ removed: z.boolean(), before: ZCallMapping.nullable() }),
    errors: e.writer,
  },
  {
    method: 'post',
    path: '/api/brokers/{broker}/move-preview',
    tag: 'migration',
    access: 'operator',
    summary:
      'The exact jobs a move of dead letters (or, with `from: "waiting"`, waiting tasks) `ids` to `to` would create through their call mappings, beside their calls (the way back, a named-payload job to a positional call: `letter` beside the `call` it becomes); nothing sent',
    body: z.object({ to: z.string(), ids: z.array(z.string()), from: z.enum(['dead', 'waiting']).optional() }),
    ok: z.object({ keyed: z.string().nullable(), items: z.array(ZPreviewItem) }),
    errors: e.writer,
  },
  {
    method: 'get',
    path: '/api/mappings',
    tag: 'migration',
    access: 'reader',
    summary: 'Every call mapping, as JSON the import takes back',
    ok: ZMappingExport,
    errors: [503],
  },
  {
    method: 'post',
    path: '/api/mappings',
    tag: 'migration',
    access: 'operator',
    summary: 'Import an export: every mapping validated (fields named `mappings.N.…`) before any is saved; audited per source broker',
    body: ZMappingExport,
    ok: z.object({ saved: z.number() }),
    errors: [400, 403, 413, 503],
  },
];
