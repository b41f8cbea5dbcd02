import fs from 'node:fs';
import path from 'node:path';
import { celerySeed, extraBrokers, extraStatus } from './brokers-extra';
import { cleanupRabbit, dropRedisPrefix, pgRows } from './services';
import { E2E_SYSTEMS } from './systems';

// Removes the run's temp broker files, the PostgreSQL schema, and the RabbitMQ queues and
// Redis keys of the run; POTATOQ_E2E_KEEP=1 keeps them all for a post-mortem.
export default async function globalTeardown(): Promise<void> {
  const dir = process.env.POTATOQ_E2E_DIR;
  if (!dir) return;
  // A system's servers are processes of the run: stopped (QueueFlow's database dropped) even with KEEP.
  for (const sys of E2E_SYSTEMS) {
    try {
      sys.stop?.(dir);
    } catch (e) {
      console.warn(`e2e teardown (${sys.label}): ${(e as Error).message}`);
    }
  }
  if (process.env.POTATOQ_E2E_KEEP === '1') return;
  await dropServiceBrokers(dir).catch((e: unknown) => console.warn(`e2e teardown: ${(e as Error).message}`));
  for (const sys of E2E_SYSTEMS)
    await sys.drop?.(dir).catch((e: unknown) => console.warn(`e2e teardown (${sys.label}): ${(e as Error).message}`));
  fs.rmSync(dir, { recursive: true, force: true });
}

async function dropServiceBrokers(dir: string): Promise<void> {
  if (!fs.existsSync(path.join(dir, 'extra.json'))) return;
  const x = extraBrokers(dir);
  // Also after a half-finished setup; only a service known to be missing is left alone.
  const missing = (why: string | null) => why !== null && !why.startsWith('global setup did not run');
  const status = extraStatus(dir);
  const quiet = (label: string) => (e: unknown) => console.warn(`e2e teardown (${label}): ${(e as Error).message}`);
  if (!missing(status.pg)) await pgRows(`DROP SCHEMA IF EXISTS "${x.pg.schema}" CASCADE`).catch(quiet('PostgreSQL'));
  if (!missing(status.rmq)) await cleanupRabbit([x.rmq.queue], x.rmq.prefix).catch(quiet('RabbitMQ'));
  if (!missing(status.redis ?? null)) await dropRedisPrefix(x.redis.url, x.redis.prefix).catch(quiet('Redis'));
  if (!missing(status.celery ?? null)) {
    try {
      celerySeed(x, [{ op: 'flush' }]);
    } catch (e) {
      quiet('Celery')(e);
    }
  }
}
