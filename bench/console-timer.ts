// The console's adapter timed in a process of its own, the way bench/py/dashboard_timer.py times
// potatoq's Dashboard.handle(): one case name per line on stdin ("overview" or "dead100"), each
// answered with `@@ms` and the milliseconds it took, result serialised to JSON included (what
// the API sends). The broker is POTATOQ_CONSOLE_BROKERS' entry `bench`, as the console's
// server reads it. Run by bench/potatoq-side.ts (consoleInProcess).
import readline from 'node:readline';
import { getAdapter, resetAdapters } from '@/lib/brokers/registry';
import { ZDeadListQuery } from '@/lib/brokers/schema';

const a = getAdapter('bench');
const cases: Record<string, () => Promise<string>> = {
  overview: async () => JSON.stringify(await a.overview()),
  dead100: async () => JSON.stringify(await a.listDead(ZDeadListQuery.parse({ limit: 100 }))),
};
for await (const line of readline.createInterface({ input: process.stdin })) {
  const fn = cases[line.trim()];
  if (!fn) throw new Error(`console-timer: no case ${line}`);
  const t0 = performance.now();
  await fn();
  process.stdout.write(`@@ms ${(performance.now() - t0).toFixed(4)}\n`);
}
await resetAdapters();
