import 'server-only';
import { Counter, Registry } from 'prom-client';

// Console action counts, by the outcome the audit trail records (done, partial, failed,
// refused), counted by the gate as it finishes each recorded call. Per process, as Prometheus
// counters are: a restart starts again at 0 and rate()/increase() handle it.

interface ActionMetrics {
  registry: Registry;
  actions: Counter<'broker' | 'action' | 'outcome'>;
}

// One per process, across Next's module instances (route handlers and server actions).
const g = globalThis as unknown as { __potatoqActionMetrics?: ActionMetrics };

function actionMetrics(): ActionMetrics {
  if (g.__potatoqActionMetrics) return g.__potatoqActionMetrics;
  const registry = new Registry();
  const actions = new Counter({
    name: 'potatoq_console_actions_total',
    help: 'Console actions (replay, discard, revoke, purge, enqueue, bulk-*, ...) by broker and the outcome the audit trail records: done, partial, failed or refused.',
    labelNames: ['broker', 'action', 'outcome'] as const,
    registers: [registry],
  });
  g.__potatoqActionMetrics = { registry, actions };
  return g.__potatoqActionMetrics;
}

export function countAction(broker: string, action: string, outcome: 'done' | 'partial' | 'failed' | 'refused' | 'pending'): void {
  actionMetrics().actions.inc({ broker, action, outcome });
}

export const actionRegistry = (): Registry => actionMetrics().registry;
