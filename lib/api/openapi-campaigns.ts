import 'server-only';
import { z } from 'zod';
import { ZReason } from '@/lib/actions/gate';
import { ZActionResult } from '@/lib/brokers/dto';
import { ZCampaignItems, ZCampaignList, ZCampaignListQuery, ZCampaignView, ZItemQuery } from '@/lib/campaigns/schema';

// The campaigns' routes in the OpenAPI description (lib/api/openapi.ts spreads them in).

const id = z.string().describe('a campaign id (`cmp-` and a UUID)');

export const CAMPAIGN_ROUTES = [
  {
    method: 'get' as const,
    path: '/api/campaigns',
    tag: 'campaigns',
    access: 'reader' as const,
    summary: 'Replay campaigns, newest first (`task`: the ones that replayed or moved a task id, by either id)',
    query: ZCampaignListQuery,
    ok: ZCampaignList,
    errors: [400, 503],
  },
  {
    method: 'get' as const,
    path: '/api/campaigns/{id}',
    tag: 'campaigns',
    access: 'reader' as const,
    summary: "A campaign with its roll-up; the view polls its follow-up once when due (at most 100 tasks' fates)",
    params: { id },
    ok: ZCampaignView,
    errors: [400, 404, 503],
  },
  {
    method: 'get' as const,
    path: '/api/campaigns/{id}/items',
    tag: 'campaigns',
    access: 'reader' as const,
    summary: "A campaign's tasks with their fates, in replay order (`fate` filters)",
    params: { id },
    query: ZItemQuery,
    ok: ZCampaignItems,
    errors: [400, 404, 503],
  },
  {
    method: 'post' as const,
    path: '/api/campaigns/{id}/replay-again',
    tag: 'campaigns',
    access: 'operator' as const,
    summary: 'Replay the dead letters of the tasks that died again (the first 1,000) as a new campaign linked to this one',
    params: { id },
    body: z.object({ reason: ZReason.min(1).describe('why (required); recorded in the audit trail') }),
    ok: ZActionResult,
    errors: [400, 403, 404, 409, 413, 501, 503, 504],
  },
];
