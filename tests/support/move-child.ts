// A second console process for tests/move-journal.int.test.ts: moves dead letters with the
// console's own code (the configuration comes from its environment, the state store too) and
// prints the result as one line. The test kills it between the move's two steps to "crash" it.
// Run with: vite-node --config vitest.config.ts tests/support/move-child.ts
import { moveDead } from '@/lib/brokers/move';
import { moveWaiting } from '@/lib/brokers/move-waiting';

const [from, to, by] = [process.env.MOVE_FROM ?? '', process.env.MOVE_TO ?? '', process.env.MOVE_BY ?? 'child'];
const ids = (process.env.MOVE_IDS ?? '').split(',').filter(Boolean);
process.stdout.write('moving\n');
try {
  // MOVE_STATE=waiting: waiting tasks (lib/brokers/move-waiting.ts) instead of dead letters.
  const r = await (process.env.MOVE_STATE === 'waiting' ? moveWaiting : moveDead)(from, to, ids, { by });
  process.stdout.write(`RESULT ${JSON.stringify(r)}\n`);
  process.exit(0);
} catch (e) {
  process.stdout.write(`ERROR ${String(e)}\n`);
  process.exit(1);
}
