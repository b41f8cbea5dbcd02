import { expect } from 'vitest';
import { ZWorkflowListQuery } from '@/lib/brokers/workflow-schema';
import { contractCase, type Ctx } from './helpers';

// Workflow runs (the Workflows view): declared by capability. An adapter that has none says
// why in its words; one that has them lists runs, refuses a status it does not have, and
// answers a run it does not hold as not there (never a crash). The runs themselves are each
// system's round trips (QueueFlow: tests/brokers/queueflow/queueflow-workflows.int.test.ts).

export function registerWorkflows(ctx: Ctx): void {
  contractCase(ctx, 'declares workflow runs with its words, or says why it has none', {}, async () => {
    const { a } = ctx();
    const caps = await a.capabilities();
    if (!caps.workflows.on) {
      expect(caps.workflows.why?.length ?? 0).toBeGreaterThan(20);
      expect(caps.retryWorkflow.on).toBe(false);
      return;
    }
    expect(a.workflows).toBeDefined();
    const decl = a.model.workflows!;
    expect(decl.runStatuses.some((s) => s.role === 'failed')).toBe(true);
    expect(decl.retry.from.every((k) => decl.runStatuses.some((s) => s.key === k))).toBe(true);
  });

  contractCase(
    ctx,
    'lists runs, refuses a status it does not have, and answers an unknown run as not there',
    { caps: ['workflows'] },
    async () => {
      const w = ctx().a.workflows!;
      const page = await w.list(ZWorkflowListQuery.parse({ limit: 5 }));
      expect(page.items.length).toBeLessThanOrEqual(5);
      await expect(w.list(ZWorkflowListQuery.parse({ status: 'no-such-status' }))).rejects.toMatchObject({ code: 'InvalidInput' });
      const unknown = await w.get('00000000-0000-4000-8000-000000000000').catch((e: { code?: string }) => e.code);
      expect([null, 'InvalidInput']).toContain(unknown);
    },
  );
}
