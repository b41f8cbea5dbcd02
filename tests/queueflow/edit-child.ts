// A console process doing one edit-replay on QueueFlow, for the lease tests in
// tests/roundtrip/edit-replay-queueflow-lease.int.test.ts: the console's real replayEditedQf on
// the state store POTATOQ_CONSOLE_STATE names, with a lease of LEASE_MS. MODE:
//   run          the whole edit-replay; prints `result <json>`
//   slow         the same, lingering 1.5 s after the replay (while it holds the queue paused)
//   hang-create  prints `holding` and stops before it creates the edited job (to be SIGKILLed)
//   hang-cancel  prints `holding` and stops before it cancels QueueFlow's unedited copy
// GO_AT (epoch ms): start then, so two children race.
// Usage: vite-node tests/queueflow/edit-child.ts LETTER_ID EDIT_JSON (env QF_URL, QF_TOKEN, MODE, LEASE_MS)
import { createQfClient, type QfClient } from '@/lib/brokers/queueflow/client';
import { replayEditedQf } from '@/lib/brokers/queueflow/edit-replay';
import type { ReplayEditInput } from '@/lib/brokers/schema-edit';
import { adapterContext } from '@/lib/brokers/systems-context';
import { leaseSettings } from '@/lib/leases/hold';
import { getPauseLeaseStore } from '@/lib/leases/store';

const [letter, editJson] = process.argv.slice(2) as [string, string];
const mode = process.env.MODE ?? 'run';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
const base = createQfClient({ url: process.env.QF_URL!, token: process.env.QF_TOKEN!, timeoutMs: 8000 });

async function hang(): Promise<never> {
  process.stdout.write('holding\n');
  setInterval(() => undefined, 1000); // alive (and renewing) until it is killed
  return new Promise<never>(() => undefined);
}

const client: QfClient = {
  where: base.where,
  get: (route, query) => base.get(route, query),
  async post<T>(route: string, body: unknown, headers?: Record<string, string>): Promise<T> {
    if (mode === 'hang-create' && route === '/api/v1/jobs') return hang();
    if (mode === 'hang-cancel' && route.endsWith('/cancel')) return hang();
    const r = await base.post<T>(route, body, headers);
    process.stdout.write(`step ${Date.now()} POST ${route}\n`);
    if (mode === 'slow' && route.endsWith('/replay')) await sleep(1500);
    return r;
  },
};

await sleep(Number(process.env.GO_AT ?? 0) - Date.now());
const ctx = adapterContext({ leases: leaseSettings(getPauseLeaseStore, { ttlMs: Number(process.env.LEASE_MS ?? 30_000) }) });
const r = await replayEditedQf(client, 'qf', letter, JSON.parse(editJson) as ReplayEditInput, ctx);
process.stdout.write(`result ${JSON.stringify(r)}\n`);
process.exit(0);
