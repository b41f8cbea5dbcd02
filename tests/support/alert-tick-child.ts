// Another console instance for tests/alerts/alerts-memory.int.test.ts: one evaluation of the
// alert targets with the console's own code (brokers, targets and the state store from its
// environment), at the time ALERT_NOW (epoch ms), then it waits for its deliveries and prints
// the readings as one line.
// Run with: vite-node --config vitest.config.ts tests/support/alert-tick-child.ts
import { deliveriesInFlight, runAlertTick } from '@/lib/alerts/evaluator';

const at = Number(process.env.ALERT_NOW);
try {
  const readings = await runAlertTick({ baseDelayMs: 20 }, () => at);
  while (deliveriesInFlight() > 0) await new Promise((r) => setTimeout(r, 50));
  process.stdout.write(`RESULT ${JSON.stringify(readings.map((r) => ({ id: r.target.id, value: r.value, breached: r.breached })))}\n`);
  process.exit(0);
} catch (e) {
  process.stdout.write(`ERROR ${String(e)}\n`);
  process.exit(1);
}
