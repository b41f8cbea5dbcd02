import 'server-only';
import type { Redis } from 'ioredis';
import type { ScheduleList } from '@/lib/brokers/schedule';
import { periodicSchedules } from '../schedules';

/** Entries read at most from the hash (one per beat_schedule entry: small in practice). */
const MAX_ENTRIES = 2000;

/** potatoq's periodic claims on Redis: `<prefix>:periodic-last`, entry name -> latest fire_at. */
export async function listPeriodic(client: Redis, prefix: string): Promise<ScheduleList> {
  const key = `${prefix}:periodic-last`;
  const size = await client.hlen(key);
  const entries: Array<{ name: string; fires: number[] }> = [];
  let cursor = '0';
  do {
    const [next, flat] = await client.hscan(key, cursor, 'COUNT', 500);
    cursor = next;
    for (let i = 0; i + 1 < flat.length && entries.length < MAX_ENTRIES; i += 2) {
      const at = Number(flat[i + 1]);
      entries.push({ name: flat[i]!, fires: Number.isFinite(at) ? [at] : [] });
    }
  } while (cursor !== '0' && entries.length < MAX_ENTRIES);
  const capped = size > MAX_ENTRIES;
  const notes = size === 0 ? [`${key} is empty: no periodic task has fired on this broker (or a potatoq before 26.1a8 sent them)`] : [];
  if (capped) notes.push(`only ${MAX_ENTRIES} of ${size} entries were read`);
  return { ...periodicSchedules(entries, { history: false, notes }), capped };
}
