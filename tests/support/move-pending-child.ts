// A console process killed between a pending QueueFlow job's take and its enqueue on the target
// (tests/move-queueflow-pending.int.test.ts): the console's own moveWaiting, configured from its
// environment like tests/support/move-child.ts, whose target's enqueue never answers (prints
// `holding`; the test SIGKILLs it there). The job is cancelled on QueueFlow by then, its call
// held in the state store.
// Usage: vite-node --config vitest.config.ts tests/support/move-pending-child.ts (env MOVE_FROM, MOVE_TO, MOVE_IDS)
import { moveWaiting } from '@/lib/brokers/move-waiting';
import { getAdapter } from '@/lib/brokers/registry';

const [from, to] = [process.env.MOVE_FROM ?? '', process.env.MOVE_TO ?? ''];
getAdapter(to).importCall = () => {
  process.stdout.write('holding\n');
  setInterval(() => undefined, 1000);
  return new Promise<never>(() => undefined);
};
const r = await moveWaiting(from, to, (process.env.MOVE_IDS ?? '').split(','), { by: 'killed' });
process.stdout.write(`RESULT ${JSON.stringify(r)}\n`);
process.exit(0);
