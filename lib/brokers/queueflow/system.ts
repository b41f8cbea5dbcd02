import 'server-only';
import type { SystemModule } from '@/lib/brokers/types';
import { createQueueflowAdapter } from './adapter';
import { ZQueueflowOptions } from './options';

/** Why a QueueFlow URL cannot be used, or null. Credentials belong in `token`, never the URL. */
export function checkQueueflowUrl(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'a QueueFlow broker URL must look like http://host:port';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return "a QueueFlow broker's scheme must be http or https";
  if (u.username || u.password) return 'put the QueueFlow credential in "token", not in the URL';
  if (u.search || u.hash) return 'a QueueFlow broker URL takes no query or fragment';
  return null;
}

export const queueflowSystem: SystemModule = {
  kind: 'queueflow',
  label: 'QueueFlow',
  checkUrl: checkQueueflowUrl,
  storeOf: () => 'queueflow',
  // The console talks to its HTTP API; the jobs live in the PostgreSQL database it runs on.
  storeLabel: () => 'PostgreSQL',
  optionsFor: () => ZQueueflowOptions,
  factoryFor: () => createQueueflowAdapter,
};
