import 'server-only';
import { z } from 'zod';
import { resolvePrincipal } from '@/lib/actions/principal';
import { ConsoleError } from '@/lib/brokers/errors';
import { taskFates } from '@/lib/brokers/service-fate';
import { pollCampaign, type PollOutcome } from './follow';
import { getCampaignStore } from './open';
import { ZCampaignListQuery, ZItemQuery, type Campaign, type CampaignItems, type CampaignView, type CampaignList } from './schema';
import { parseInput } from '@/lib/brokers/parse-input';

// The campaigns' door for pages and routes: every read asks who is asking first (as the audit
// trail does), every write goes through the gate. A view of a campaign is what drives its
// follow-up (one bounded poll when due, lib/campaigns/follow.ts). Its one write, replaying
// the tasks that died again, is a gated operation (lib/actions/operations.ts).

const ZCampaignId = z.string().regex(/^cmp-[0-9a-f-]{36}$/, 'not a campaign id');

export async function found(id: string): Promise<Campaign> {
  const c = await (await getCampaignStore()).get(parseInput(ZCampaignId, id));
  if (!c) throw new ConsoleError('NotFound', `no campaign ${id.slice(0, 60)}`);
  return c;
}

export async function listCampaigns(params: unknown, headers: Headers): Promise<CampaignList> {
  await resolvePrincipal(headers);
  return (await getCampaignStore()).list(parseInput(ZCampaignListQuery, params));
}

/** One poll of the follow-up when due; what it did (or why not). */
export async function followCampaign(id: string): Promise<PollOutcome> {
  return pollCampaign(await getCampaignStore(), parseInput(ZCampaignId, id), { fates: taskFates });
}

/** The campaign with its roll-up, after a poll of its follow-up when one is due. */
export async function getCampaign(id: string, headers: Headers): Promise<CampaignView> {
  await resolvePrincipal(headers);
  await found(id);
  const p = await followCampaign(id);
  return { ...(await found(id)), lastPoll: 'error' in p ? p.error : null };
}

export async function campaignItems(id: string, params: unknown, headers: Headers): Promise<CampaignItems> {
  await resolvePrincipal(headers);
  await found(id);
  return (await getCampaignStore()).items(id, parseInput(ZItemQuery, params));
}
