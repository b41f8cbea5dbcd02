// A console process doing a paced redrive, for the kill test in rabbitmq-faults.int.test.ts:
// it prints `progress <n>` after each confirmed replay and is SIGKILLed mid-way.
// Usage: vite-node tests/rabbitmq/redrive-child.ts AMQP_URL QUEUE IDS_FILE
import fs from 'node:fs';
import { createRabbitmqAdapter } from '@/lib/brokers/potatoq/rabbitmq/adapter';

const [url, queue, idsFile] = process.argv.slice(2) as [string, string, string];
const ids = JSON.parse(fs.readFileSync(idsFile, 'utf8')) as string[];
const adapter = createRabbitmqAdapter({ id: 'rmq', name: 'redrive child', url, readOnly: false, options: { queues: [queue] } });
const result = await adapter.replayDeadPaced(ids, { queue, rate: 400, onProgress: (done) => process.stdout.write(`progress ${done}\n`) });
process.stdout.write(`done ${result.succeeded.length}\n`);
await adapter.close();
