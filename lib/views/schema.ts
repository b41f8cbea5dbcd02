// Saved views shared by the team: a list page's filtered URL under a name, kept per broker in
// the console's state store. A time range is saved as written, so a relative one stays relative.
// Client-safe (the form checks the same rules before sending).
import { z } from 'zod';
import { boundMs, RANGE_HINT } from '@/lib/brokers/time-range';

export const MAX_VIEW_NAME = 80;
export const MAX_VIEW_DESCRIPTION = 500;
/** Team views kept per broker: a bound on what one operator's script can store. */
export const MAX_TEAM_VIEWS = 200;
const MAX_HREF = 2_000;
const MAX_VALUE = 500;

/** The filters each list page reads from its URL; anything else is not a filter of that list. */
const LIST_FILTERS: ReadonlyArray<readonly [RegExp, readonly string[], string]> = [
  [/^dead$/, ['queue', 'task', 'id', 'q', 'group', 'since', 'until'], 'dead letters'],
  [/^queues\/[^/]+$/, ['state', 'task', 'id', 'q', 'since', 'until'], 'a queue'],
  [/^results$/, ['status', 'since', 'until'], 'results'],
];

/**
 * Why `href` cannot be a team view of `broker`'s lists, or null. A view is a console path
 * (`/brokers/<broker>/dead?queue=emails`), never a link elsewhere: it is shown to everyone.
 */
export function viewHrefProblem(href: string, broker: string): string | null {
  if (href.length > MAX_HREF) return `at most ${MAX_HREF} characters`;
  if (!href.startsWith('/') || href.startsWith('//') || /[\\#\s]/.test(href))
    return 'must be a path of this console, such as /brokers/b/dead?queue=q';
  const [path = '', query = ''] = href.split('?', 2);
  const prefix = `/brokers/${encodeURIComponent(broker)}/`;
  if (!path.startsWith(prefix)) return `must be a list of broker "${broker}" (start with ${prefix})`;
  const rest = path.slice(prefix.length);
  const list = LIST_FILTERS.find(([re]) => re.test(rest));
  if (!list) return 'must be a list page: dead letters, a queue, or results';
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(query);
    decodeURIComponent(rest);
  } catch {
    return 'is not a valid URL';
  }
  for (const [k, v] of params) {
    if (!list[1].includes(k)) return `"${k.slice(0, 40)}" is not a filter of ${list[2]} (filters: ${list[1].join(', ')})`;
    if (v.length > MAX_VALUE) return `the filter "${k}" is longer than ${MAX_VALUE} characters`;
    // A time range is kept as written: a saved "1h" stays the last hour whenever the view opens.
    if ((k === 'since' || k === 'until') && v && boundMs(v, Date.now()) === null) return `the filter "${k}" is not a time: ${RANGE_HINT}`;
  }
  return null;
}

export const ZViewName = z
  .string({ error: 'give the view a name' })
  .trim()
  .min(1, 'give the view a name')
  .max(MAX_VIEW_NAME, `at most ${MAX_VIEW_NAME} characters`)
  .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), 'no control characters');

export const ZViewDescription = z
  .string({ error: 'the description is text' })
  .trim()
  .max(MAX_VIEW_DESCRIPTION, `at most ${MAX_VIEW_DESCRIPTION} characters`)
  .refine((s) => !/[\u0000-\u0009\u000b-\u001f\u007f]/.test(s), 'no control characters');

const viewHref = (broker: string) =>
  z.string({ error: 'the view needs the link of a list' }).superRefine((href, ctx) => {
    const why = viewHrefProblem(href, broker);
    if (why) ctx.addIssue({ code: 'custom', message: why });
  });

/** The body of `POST /api/brokers/{broker}/views`; `replace` overwrites a view of the same name. */
export const teamViewInput = (broker: string) =>
  z.strictObject({
    name: ZViewName,
    href: viewHref(broker),
    description: ZViewDescription.optional(),
    replace: z.boolean().optional(),
  });
export type TeamViewInput = z.output<ReturnType<typeof teamViewInput>>;

export const ZTeamViewRemove = z.strictObject({ name: ZViewName });

/**
 * The body of `POST /api/brokers/{broker}/views/edit`: the view `name` as it was read at
 * `version`, and what it becomes (`newName` renames it). An edit from an older version is refused.
 */
export const teamViewEdit = (broker: string) =>
  z.strictObject({
    name: ZViewName,
    version: z.number({ error: 'the version of the view as it was read' }).int().min(1),
    newName: ZViewName,
    href: viewHref(broker),
    description: ZViewDescription.default(''),
  });
export type TeamViewEdit = z.output<ReturnType<typeof teamViewEdit>>;

export const ZTeamView = z
  .strictObject({
    name: z.string(),
    href: z.string().describe('the list page and its filter, a path of this console'),
    description: z.string().describe('what the view is for (may be empty)'),
    createdAt: z.string().describe('ISO 8601 time'),
    createdBy: z.string(),
    version: z.number().int().describe('goes up with each edit; an edit names the version it was made from'),
    updatedAt: z.string().nullable().describe('ISO 8601 time of the last edit; null when never edited'),
    updatedBy: z.string().nullable(),
  })
  .meta({ id: 'TeamView' });
export type TeamView = z.infer<typeof ZTeamView>;

export const ZTeamViews = z.strictObject({ views: z.array(ZTeamView) }).meta({ id: 'TeamViews' });
