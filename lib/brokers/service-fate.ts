import 'server-only';
import { getConfig } from '@/lib/config';
import { ConsoleError } from './errors';
import { getAdapter } from './registry';
import { NO_FATE_WHY, hasNul, withTimeout } from './service';
import { FATE_BATCH, ZTaskFate, type TaskFate } from './dto-fate';
import type { Cap } from './model';
import type { BrokerAdapter } from './types';

// A campaign's door into brokers (lib/campaigns/), beside service.ts: the same read timeout
// and NUL check. Nothing here knows a system: how a replayed task's fate is found is the
// adapter's (`fate`, kit/fate.ts), off with the adapter's reason where it tells none.

function fateCapOf(a: BrokerAdapter, caps: { fate?: Cap }): Cap {
  const cap = caps.fate ?? { on: false };
  if (!cap.on) return { on: false, why: cap.why ?? NO_FATE_WHY };
  return a.fate ? cap : { on: false, why: NO_FATE_WHY };
}

/** Whether broker `brokerId` can tell replayed tasks' fates, and why not. Read-only does not
 *  matter: following is a read. */
export async function fateCapability(brokerId: string): Promise<Cap> {
  const a = getAdapter(brokerId);
  const caps = await withTimeout('capability probe', getConfig().timeouts.readMs, () => a.capabilities());
  return fateCapOf(a, caps);
}

/**
 * Where each of `ids` (at most FATE_BATCH) is now, one fate per id in order. Unsupported with
 * the adapter's reason where it tells none; an answer that is not one fate per id is refused
 * (a broken adapter must not settle a campaign's tasks wrongly).
 */
export async function taskFates(brokerId: string, ids: string[]): Promise<TaskFate[]> {
  if (hasNul(ids)) throw new ConsoleError('InvalidInput', 'ids: contains a NUL character');
  if (ids.length > FATE_BATCH) throw new ConsoleError('InvalidInput', `ids: at most ${FATE_BATCH} per call`);
  if (!ids.length) return [];
  return withTimeout('task fates', getConfig().timeouts.readMs, async () => {
    const a = getAdapter(brokerId);
    const cap = fateCapOf(a, await a.capabilities());
    if (!cap.on || !a.fate) throw new ConsoleError('Unsupported', cap.why ?? NO_FATE_WHY);
    const fates = ZTaskFate.array().parse(await a.fate(ids));
    if (fates.length !== ids.length || fates.some((f, i) => f.id !== ids[i]))
      throw new ConsoleError('BrokerUnavailable', 'the broker answered fates for other ids than asked');
    return fates;
  });
}
