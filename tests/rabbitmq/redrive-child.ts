// A console process doing a paced redrive, for the kill test in rabbitmq-faults.int.test.ts:
// it prints `progress <n>` after each confirmed replay and is SIGKILLed mid-way. With PREFETCH,
// each DLQ channel holds at most that many letters (a filtered redrive then spans many channels).
// PREFETCH 0 is the adapter's own. RATE is the pace (default 400/s; 0: unpaced, REDRIVE_WINDOW publishes in flight, as a bulk job).
// Usage: vite-node tests/rabbitmq/redrive-child.ts AMQP_URL QUEUE IDS_FILE [PREFETCH] [RATE]
import fs from 'node:fs';
import { createRabbitmqAdapter } from '@/lib/brokers/potatoq/rabbitmq/adapter';

const [url, queue, idsFile, prefetch, rate] = process.argv.slice(2) as [string, string, string, string?, string?];
const ids = JSON.parse(fs.readFileSync(idsFile, 'utf8')) as string[];
const adapter = createRabbitmqAdapter({ id: 'rmq', name: 'redrive child', url, readOnly: false, options: { queues: [queue] } });
const result = await adapter.replayDeadPaced(ids, {
  queue,
  ...(rate === '0' ? {} : { rate: Number(rate || 400) }),
  ...(Number(prefetch) > 0 ? { prefetch: Number(prefetch) } : {}),
  onProgress: (done) => process.stdout.write(`progress ${done}\n`),
});
process.stdout.write(`done ${result.succeeded.length}\n`);
await adapter.close();
