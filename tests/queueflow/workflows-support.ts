// Workflows created by the REAL Python client 0.5.0 (its WorkflowBuilder and create_workflow:
// tests/queueflow/qf_workflows.py), for the Workflows int tests and e2e seeders.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { QF_PYTHON, type QueueflowServer } from './support';

export interface StepSpec {
  name: string;
  task: string;
  after?: string[];
  payload?: Record<string, unknown>;
  queue?: string;
  on_failure?: 'halt' | 'skip' | 'continue';
  fan_out?: { path: string; item_key?: string };
}

export function createWorkflows(
  s: QueueflowServer,
  flows: Array<{ name: string; steps: StepSpec[] }>,
): Array<{ id: string; name: string; status: string }> {
  const out = execFileSync(QF_PYTHON, [path.join(__dirname, 'qf_workflows.py')], {
    input: JSON.stringify(flows),
    env: { ...process.env, PYTHONUNBUFFERED: '1', QUEUEFLOW_URL: s.url, QUEUEFLOW_TOKEN: s.token },
    encoding: 'utf8',
    timeout: 120_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(out) as Array<{ id: string; name: string; status: string }>;
}

/** The shapes the Workflows view is tested with, every step on `queue`: a chain, a fan-out
 *  with a join, and an order whose `charge` step fails for good (qf.fatal, payload n) halting
 *  the run with `ship` and `notify` downstream of it and `audit` beside it. */
export function shapes(queue: string, tag: string, n: number) {
  const q = { queue };
  return [
    {
      name: `chain-${tag}`,
      steps: [
        { name: 'a', task: 'qf.ok', payload: { step: 'a' }, ...q },
        { name: 'b', task: 'qf.ok', after: ['a'], ...q },
        { name: 'c', task: 'qf.ok', after: ['b'], ...q },
      ],
    },
    {
      name: `fanout-${tag}`,
      steps: [
        { name: 'seed', task: 'qf.ok', payload: { items: [1, 2, 3] }, ...q },
        { name: 'each', task: 'qf.ok', after: ['seed'], fan_out: { path: 'seed.echo.items' }, ...q },
        { name: 'left', task: 'qf.ok', after: ['seed'], ...q },
        { name: 'join', task: 'qf.ok', after: ['each', 'left'], ...q },
      ],
    },
    {
      name: `order-${tag}`,
      steps: [
        { name: 'prepare', task: 'qf.ok', ...q },
        { name: 'charge', task: 'qf.fatal', after: ['prepare'], payload: { n }, ...q },
        { name: 'audit', task: 'qf.ok', after: ['prepare'], ...q },
        { name: 'ship', task: 'qf.ok', after: ['charge'], ...q },
        { name: 'notify', task: 'qf.ok', after: ['ship', 'audit'], ...q },
      ],
    },
  ] satisfies Array<{ name: string; steps: StepSpec[] }>;
}

/** A workflow of `count` steps: a tree three wide per level (step i after step (i-1)/3). */
export function bigWorkflow(name: string, queue: string, count = 300) {
  return {
    name,
    steps: Array.from({ length: count }, (_, i) => ({
      name: `s${i}`,
      task: 'qf.ok',
      queue,
      ...(i ? { after: [`s${Math.floor((i - 1) / 3)}`] } : {}),
    })),
  };
}
