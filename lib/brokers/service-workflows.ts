import 'server-only';
import { getConfig } from '@/lib/config';
import { ConsoleError } from './errors';
import { getAdapter } from './registry';
import { hasNul, requireCapability, withTimeout } from './service';
import type { BrokerAdapter, WorkflowsAdapter } from './types';
import type { WorkflowDetail, WorkflowListQuery, WorkflowRetryResult, WorkflowRunPage } from './workflow-schema';

// The Workflows view's door into brokers, beside service.ts: the same timeouts, NUL check and
// capability refusals. Nothing here knows a system: what a run is and how it retries is the
// adapter's (`workflows`, `model.workflows`), off with the adapter's reason where it has none.

const NUL = () => new ConsoleError('InvalidInput', 'input contains a NUL character');

/** The adapter's workflows, or Unsupported with its own reason. */
async function workflowsOf(a: BrokerAdapter): Promise<WorkflowsAdapter> {
  const cap = (await a.capabilities()).workflows;
  if (!cap?.on || !a.workflows || !a.model.workflows)
    throw new ConsoleError('Unsupported', cap?.why ?? "this system's adapter shows no workflow runs");
  return a.workflows;
}

function read<T>(brokerId: string, what: string, input: unknown, fn: (w: WorkflowsAdapter) => Promise<T>): Promise<T> {
  if (hasNul(input)) return Promise.reject(NUL());
  return withTimeout(what, getConfig().timeouts.readMs, async () => fn(await workflowsOf(getAdapter(brokerId))));
}

export const listWorkflows = (brokerId: string, q: WorkflowListQuery): Promise<WorkflowRunPage> =>
  read(brokerId, 'workflow list', q, (w) => w.list(q));

export async function getWorkflow(brokerId: string, id: string): Promise<WorkflowDetail> {
  const run = await read(brokerId, 'workflow', id, (w) => w.get(id));
  if (!run) throw new ConsoleError('NotFound', `workflow ${id.slice(0, 200)} is not in this broker`, { id: 'no such workflow here' });
  return run;
}

/**
 * The system's retry of one failed run, after reading it again: the typed confirmation must
 * repeat the run's name, and the run must be in a status the system retries (else nothing is
 * sent). The steps it resets are the ones read just before; the system's own check decides
 * again (a run that started meanwhile is its Conflict, nothing changed).
 */
export async function retryWorkflow(brokerId: string, input: { id: string; confirm: string }): Promise<WorkflowRetryResult> {
  if (hasNul(input)) throw NUL();
  return withTimeout('workflow retry', getConfig().timeouts.writeMs, async () => {
    const a = await requireCapability(brokerId, 'retryWorkflow');
    const w = await workflowsOf(a);
    const run = await w.get(input.id);
    if (!run)
      throw new ConsoleError('NotFound', `workflow ${input.id.slice(0, 200)} is not in this broker; nothing was changed`, {
        id: 'no such workflow here',
      });
    if (input.confirm !== run.name)
      throw new ConsoleError('InvalidInput', `type the workflow's name exactly to confirm; nothing was changed`, {
        confirm: `type ${JSON.stringify(run.name.slice(0, 200))} to confirm`,
      });
    if (!run.retry.on) throw new ConsoleError('Conflict', `${run.retry.why ?? 'this run cannot be retried'}; nothing was changed`);
    await w.retry(run.id);
    const n = run.retry.resets.length;
    return {
      brokerId,
      id: run.id,
      name: run.name,
      before: run.status,
      resets: run.retry.resets,
      requested: 1,
      succeeded: [
        {
          id: run.id,
          outcome: 'ok',
          message: `retried: ${n} step${n === 1 ? '' : 's'} back to pending (${run.retry.resets.slice(0, 20).join(', ')}${n > 20 ? ', …' : ''})`,
        },
      ],
      failed: [],
    };
  });
}
