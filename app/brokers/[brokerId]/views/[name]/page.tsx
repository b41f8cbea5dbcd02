import { notFound, redirect } from 'next/navigation';
import { requireReader } from '@/lib/auth/current';
import { viewHrefProblem } from '@/lib/views/schema';
import { getTeamViewStore } from '@/lib/views/store';
import { segment } from '../../../../_lib/params';

export const dynamic = 'force-dynamic';

/** A team view's own link: opens the list with the view's filter as it is saved now (it follows a
 *  replaced view). Only ever a list page of this broker. */
export default async function TeamViewPage({ params }: { params: Promise<{ brokerId: string; name: string }> }) {
  await requireReader();
  const p = await params;
  const brokerId = segment(p.brokerId);
  const name = segment(p.name);
  const view = (await (await getTeamViewStore()).list(brokerId)).find((v) => v.name === name);
  // Checked again: a row edited by hand in the store must not send anyone elsewhere.
  if (!view || viewHrefProblem(view.href, brokerId)) notFound();
  redirect(view.href);
}
