import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import { brokerList } from '@/lib/brokers/service';
import { getTeamViewStore } from '@/lib/views/store';
import { ZTeamViewRemove, teamViewEdit, teamViewInput, type TeamView } from '@/lib/views/schema';
import { gate } from './gate';
import { resolvePrincipal } from './principal';

// Team saved views (lib/views/): read by anyone signed in; saved and removed through the gate
// on their broker (operator with write access there, same-site, audited with the view before
// and after). Stored in the state store every console process shares.

function known(broker: string): void {
  if (!brokerList().some((b) => b.id === broker)) throw new ConsoleError('NotFound', `no broker "${broker.slice(0, 200)}" is configured`);
}

/** GET /api/brokers/:broker/views: the broker's team views, by name. */
export async function listTeamViewsOp(broker: string, headers: Headers): Promise<{ views: TeamView[] }> {
  await resolvePrincipal(headers);
  known(broker);
  return { views: await (await getTeamViewStore()).list(broker) };
}

/** POST /api/brokers/:broker/views: saves a view; a name in use is refused unless `replace`. */
export async function saveTeamViewOp(broker: string, input: unknown, headers: Headers) {
  await resolvePrincipal(headers);
  known(broker);
  return gate({
    action: 'view-save',
    brokerId: broker,
    capability: null,
    schema: teamViewInput(broker),
    input,
    headers,
    reasonRequired: false,
    target: (v) => ({ view: v.name }),
    run: async (v, ctx) => {
      const before = await (await getTeamViewStore()).put(broker, v, ctx.principal.user);
      return { saved: { name: v.name, href: v.href }, replaced: before !== null };
    },
    audit: (v, r) => ({ view: v.name, href: v.href, description: v.description ?? '', replaced: r.replaced }),
  });
}

const shown = (v: TeamView) => ({ name: v.name, href: v.href, description: v.description });

/** POST /api/brokers/:broker/views/edit: renames a view, changes its link or description, in
 *  place; refused (409) when it changed since the version the editor read. Audited before/after. */
export async function editTeamViewOp(broker: string, input: unknown, headers: Headers) {
  await resolvePrincipal(headers);
  known(broker);
  return gate({
    action: 'view-edit',
    brokerId: broker,
    capability: null,
    schema: teamViewEdit(broker),
    input,
    headers,
    reasonRequired: false,
    target: (v) => ({ view: v.name }),
    run: async (v, ctx) => {
      const { before, after } = await (await getTeamViewStore()).edit(broker, v, ctx.principal.user);
      return { before: shown(before), after: shown(after), view: after };
    },
    audit: (v, r) => ({ view: v.name, before: r.before, after: r.after }),
  });
}

/** POST /api/brokers/:broker/views/remove: removes a view by name (NotFound when there is none). */
export async function removeTeamViewOp(broker: string, input: unknown, headers: Headers) {
  await resolvePrincipal(headers);
  known(broker);
  return gate({
    action: 'view-remove',
    brokerId: broker,
    capability: null,
    schema: ZTeamViewRemove,
    input,
    headers,
    reasonRequired: false,
    target: (v) => ({ view: v.name }),
    run: async (v) => {
      const was = await (await getTeamViewStore()).remove(broker, v.name);
      if (!was) throw new ConsoleError('NotFound', `no team view named "${v.name}" on this broker`);
      return { removed: v.name };
    },
    audit: (v) => ({ view: v.name }),
  });
}
