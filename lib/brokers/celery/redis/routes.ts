import 'server-only';
import type { Redis } from 'ioredis';
import type { QueueBinding, QueueRoutes } from '../route';
import { isControlExchange, isControlQueue, SEP, type CeleryRedisKeys } from './keys';

// kombu's bindings on Redis: a SET `_kombu.binding.<exchange>` of `routing_key SEP pattern SEP
// queue` per exchange (control exchanges left out). Bounded: 10,000 exchanges, as discovery.

export async function readRedisRoutes(client: Redis, keys: CeleryRedisKeys): Promise<QueueRoutes> {
  let cursor = '0';
  const tables: string[] = [];
  do {
    const [next, batch] = await client.scan(cursor, 'MATCH', keys.bindingPattern, 'COUNT', 1000);
    cursor = next;
    tables.push(...batch);
  } while (cursor !== '0' && tables.length < 10_000);
  const bindings: QueueBinding[] = [];
  const exchanges = tables.map((k) => k.slice(keys.binding('').length)).filter((e) => !isControlExchange(e));
  if (exchanges.length) {
    const pipe = client.pipeline();
    for (const e of exchanges) pipe.smembers(keys.binding(e));
    const res = (await pipe.exec()) ?? [];
    res.forEach(([, members], i) => {
      for (const m of (members as string[] | null) ?? []) {
        const parts = m.split(SEP);
        if (parts.length !== 3 || !parts[2] || isControlQueue(parts[2])) continue;
        bindings.push({ exchange: exchanges[i]!, routingKey: parts[0]!, queue: parts[2] });
      }
    });
  }
  return {
    bindings,
    // A queue with no binding left but messages waiting: one of its bucket lists exists.
    isQueue: async (name) => (await client.exists(...keys.buckets(name))) > 0,
  };
}
