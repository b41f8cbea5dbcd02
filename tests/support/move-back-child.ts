// A console process killed in the middle of letting a QueueFlow dead letter go after a move back
// (tests/move-queueflow-back.int.test.ts): the console's real removeMovedQf on the state store
// POTATOQ_CONSOLE_STATE names, with a hold of LEASE_MS, whose client stops before it cancels
// QueueFlow's copy of the letter (prints `holding`; the test SIGKILLs it there).
// Usage: vite-node tests/support/move-back-child.ts LETTER_ID (env QF_URL, QF_TOKEN, LEASE_MS)
import { createQfClient, type QfClient } from '@/lib/brokers/queueflow/client';
import { removeMovedQf } from '@/lib/brokers/queueflow/move-out';
import { adapterContext } from '@/lib/brokers/systems-context';
import { leaseSettings } from '@/lib/leases/hold';
import { getPauseLeaseStore } from '@/lib/leases/store';

const [letter] = process.argv.slice(2) as [string];
const base = createQfClient({ url: process.env.QF_URL!, token: process.env.QF_TOKEN!, timeoutMs: 8000 });
const client: QfClient = {
  where: base.where,
  get: (route, query) => base.get(route, query),
  async post<T>(route: string, body: unknown, headers?: Record<string, string>): Promise<T> {
    if (route.endsWith('/cancel')) {
      process.stdout.write('holding\n');
      setInterval(() => undefined, 1000);
      return new Promise<never>(() => undefined);
    }
    return base.post<T>(route, body, headers);
  },
};
const ctx = adapterContext({ leases: leaseSettings(getPauseLeaseStore, { ttlMs: Number(process.env.LEASE_MS ?? 30_000) }) });
const r = await removeMovedQf(client, 'qf', [letter], ctx, { id: 'celery', name: 'Celery' });
process.stdout.write(`result ${JSON.stringify(r)}\n`);
process.exit(0);
