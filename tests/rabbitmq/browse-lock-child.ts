// Another console process holding a DLQ's browse lock, for browse-lock.int.test.ts: it takes the
// lock the console's way, prints `holding`, and keeps it until killed (or stdin closes).
// Usage: vite-node tests/rabbitmq/browse-lock-child.ts AMQP_URL MANAGEMENT_URL DLQ
import { AmqpLink } from '@/lib/transports/amqp/connection';
import { withDlqLock } from '@/lib/transports/amqp/browse-lock';
import { Management } from '@/lib/transports/amqp/management';
import { parseAmqpUrl, parseManagement } from '@/lib/transports/amqp/url';

const [url, managementUrl, dlq] = process.argv.slice(2) as [string, string, string];
const target = parseAmqpUrl(url);
const mgmt = new Management(parseManagement({ managementUrl }, target)!, 10_000);
const link = new AmqpLink(target, 10_000, (q) => mgmt.lockHolder(target.vhost, q));
const closed = new Promise<void>((r) => process.stdin.on('close', r).resume());
await withDlqLock(link, dlq, async () => {
  process.stdout.write('holding\n');
  await closed;
});
await link.close();
