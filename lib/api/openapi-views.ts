import 'server-only';
import { z } from 'zod';
import { ZExportOptions, ZResultExportQuery, ZTaskExportQuery } from '@/lib/actions/export';
import { ZGroupsExportQuery, ZWorkflowsExportQuery } from '@/lib/actions/export-lists';
import { MAX_VIEW_DESCRIPTION, MAX_VIEW_NAME, ZTeamView, ZTeamViews } from '@/lib/views/schema';
import type { Route } from './openapi-route';

// The exports of the lists (tasks, results, dead-letter groups, workers, workflow runs,
// schedules), and the team saved views (lib/api/openapi.ts spreads them in).

const file = (rows: string) => ({
  '200': {
    description: `CSV (a header row, then one row per ${rows}) or JSON lines; a last line says when the export stopped at \`max\``,
    content: { 'text/csv': { schema: { type: 'string' } }, 'application/x-ndjson': { schema: { type: 'string' } } },
  },
});
/** An export of a list its view reads whole or by status: same gate (reader), same file. */
const listExport = (path: string, tag: string, summary: string, query: z.ZodObject, rows: string, errors: number[]): Route => ({
  method: 'get',
  path: `/api/brokers/{broker}/${path}/export`,
  tag,
  access: 'reader',
  summary: `${summary} as CSV or JSON lines: streamed, at most \`max\` rows, audited`,
  query,
  other: file(rows),
  errors,
});
const name = z.string().min(1).max(MAX_VIEW_NAME).describe('unique per broker');
const href = z
  .string()
  .max(2000)
  .describe('the list page and its filter: `/brokers/{broker}/dead?queue=…`, `/queues/{queue}?state=…`, `/results?status=…`');
const description = z.string().max(MAX_VIEW_DESCRIPTION).describe('what the view is for');
const shown = z.object({ name: z.string(), href: z.string(), description: z.string() });

export const viewExportRoutes = (e: { writer: number[]; readerOfBroker: number[]; readerOfState: number[] }): Route[] => [
  listExport(
    'dead/groups',
    'dead letters',
    'The dead-letter groups (by error fingerprint, of `queue`) with counts, first and last seen and a sample reason',
    ZGroupsExportQuery,
    'group',
    e.readerOfBroker,
  ),
  listExport('workers', 'workers', 'The workers the system knows, as the Workers tab', ZExportOptions, 'worker', e.readerOfBroker),
  listExport(
    'workflows',
    'workflows',
    'The workflow runs of `status` (every run when none)',
    ZWorkflowsExportQuery,
    'run',
    e.readerOfBroker,
  ),
  listExport(
    'schedules',
    'schedules',
    'The schedules, payloads hidden where arguments are (POTATOQ_CONSOLE_REDACT_ARGS)',
    ZExportOptions,
    'schedule',
    e.readerOfBroker,
  ),
  {
    method: 'get',
    path: '/api/brokers/{broker}/tasks/export',
    tag: 'tasks',
    access: 'reader',
    summary:
      "One state's tasks matching the list's filter as CSV or JSON lines: streamed, at most `max` rows, redacted like the list, audited",
    query: ZTaskExportQuery,
    other: file('task'),
    errors: e.readerOfBroker,
  },
  {
    method: 'get',
    path: '/api/brokers/{broker}/results/export',
    tag: 'results',
    access: 'reader',
    summary: 'The stored results matching the status filter as CSV or JSON lines: streamed, at most `max` rows, audited',
    query: ZResultExportQuery,
    other: file('result'),
    errors: e.readerOfBroker,
  },
  {
    method: 'get',
    path: '/api/brokers/{broker}/views',
    tag: 'views',
    access: 'reader',
    summary: "The broker's team saved views (a list page's link under a name), by name",
    ok: ZTeamViews,
    errors: e.readerOfState,
  },
  {
    method: 'post',
    path: '/api/brokers/{broker}/views',
    tag: 'views',
    access: 'operator',
    summary:
      'Save a team view: a list page of this broker with its filter; a name in use is refused (field `name`) unless `replace`; audited',
    body: z.object({
      name,
      href,
      description: description.optional(),
      replace: z.boolean().optional().describe('overwrite the view of the same name'),
    }),
    ok: z.object({ saved: z.object({ name: z.string(), href: z.string() }), replaced: z.boolean() }),
    errors: e.writer,
  },
  {
    method: 'post',
    path: '/api/brokers/{broker}/views/edit',
    tag: 'views',
    access: 'operator',
    summary:
      'Edit a team view in place (rename with `newName`, its link, its description) from the `version` read; 409 when it changed since; audited with before and after',
    body: z.object({ name, version: z.number().int().min(1), newName: name, href, description: description.optional() }),
    ok: z.object({ before: shown, after: shown, view: ZTeamView }),
    errors: e.writer,
  },
  {
    method: 'post',
    path: '/api/brokers/{broker}/views/remove',
    tag: 'views',
    access: 'operator',
    summary: 'Remove a team view by name (404 when there is none); audited',
    body: z.object({ name }),
    ok: z.object({ removed: z.string() }),
    errors: e.writer,
  },
];
