import 'server-only';
import { getConfig } from '@/lib/config';
import { brokerKindOf, findBrokerConfig, getAdapter, listBrokerConfigs } from './registry';
import type { BrokerModel, BrokerOverview, HealthEntry } from './schema';
import { withoutWrites } from './dto';
import type { BrokerConfig } from './types';
import type { BrokerEntry } from './naming';
import { brokerNames } from './systems';
import { scheduleCaps } from './schedule-model';
import { READ_ONLY_WHY, read, shared, toConsoleError } from './service-core';

// The brokers as configured and as their overviews show them (cards, health, the boot check).

/** Why following replayed tasks is off where an adapter tells no fate (on by default). */
export const NO_FATE_WHY = "this system's adapter does not say how to find what became of a replayed task";

/** Why the family is off where an adapter does not read one (its capability is on by default). */
export const NO_FAMILY_WHY = "this system's adapter does not read task families";

export function brokerList(): BrokerEntry[] {
  return listBrokerConfigs().map(brokerEntry);
}

/** The console's own environment ("production"; each broker's may differ), null when unnamed. */
export const consoleEnvironment = (): string | null => getConfig().environment;

/** A configured broker's id, name, system and store, from its configuration alone. */
function brokerEntry(b: BrokerConfig): BrokerEntry {
  return {
    id: b.id,
    name: b.name,
    kind: brokerKindOf(b),
    system: b.kind,
    ...brokerNames(b),
    ...(b.environment ? { environment: b.environment } : {}),
  };
}

/** The adapter's declared model (states, what each action does); null while it cannot be created. */
export function brokerModel(brokerId: string): BrokerModel | null {
  try {
    return getAdapter(brokerId).model;
  } catch {
    return null;
  }
}

export async function overview(brokerId: string): Promise<BrokerOverview> {
  const config = findBrokerConfig(brokerId);
  // All of it shared: what follows the adapter's answer depends on the broker's configuration
  // and adapter only, so every caller gets the same object (and the fast reads its JSON once).
  return shared(brokerId, 'overview', undefined, async (a) => {
    const started = performance.now();
    const o = await a.overview();
    // Schedules are declared by the model; the adapter's own answer (a read-only token) wins.
    const raw = { ...o, capabilities: { ...scheduleCaps(a.model), ...o.capabilities }, model: a.model };
    // How long the broker took to answer: the overview ranks slow brokers before healthy ones.
    raw.readMs = Math.round(performance.now() - started);
    // Workers the adapter declares it cannot see are unknown, never "0 alive" (a false page).
    const known = raw.capabilities.workers.on ? raw : { ...raw, workers: null };
    // An adapter that reads no family cannot have one, whatever its defaults say.
    const hasFamily = a.family !== undefined || !known.capabilities.family.on;
    const withFamily = hasFamily ? known : { ...known, capabilities: { ...known.capabilities, family: { on: false, why: NO_FAMILY_WHY } } };
    // Likewise an adapter that tells no replayed task's fate (lib/brokers/service-fate.ts).
    const hasFate = a.fate !== undefined || !withFamily.capabilities.fate.on;
    const result = hasFate
      ? withFamily
      : { ...withFamily, capabilities: { ...withFamily.capabilities, fate: { on: false, why: NO_FATE_WHY } } };
    if (!config.readOnly) return result;
    // Configuration can only take capabilities away.
    return { ...result, readOnly: true, capabilities: withoutWrites(result.capabilities, READ_ONLY_WHY, 'ReadOnly') };
  });
}

export type OverviewOutcome =
  { ok: true; overview: BrokerOverview } | ({ ok: false; error: { code: string; message: string } } & BrokerEntry);

/** One broker's overview as an outcome: a failure (its own timeout included) becomes an error
 *  entry, never a thrown error, so each overview card settles on its own. */
export async function overviewOutcome(brokerId: string): Promise<OverviewOutcome> {
  try {
    return { ok: true, overview: await overview(brokerId) };
  } catch (e) {
    const b = findBrokerConfig(brokerId);
    const err = toConsoleError(e);
    return { ok: false, ...brokerEntry(b), error: { code: err.code, message: err.message } };
  }
}

/** Every broker's overview; one failing broker becomes an error entry, never a thrown error. */
export async function overviewAll(): Promise<OverviewOutcome[]> {
  return Promise.all(listBrokerConfigs().map((b) => overviewOutcome(b.id)));
}

export async function health(): Promise<HealthEntry[]> {
  const all = await overviewAll();
  return all.map((o) =>
    o.ok
      ? { id: o.overview.id, name: o.overview.name, kind: o.overview.kind, ok: true, error: null }
      : { id: o.id, name: o.name, kind: o.kind as HealthEntry['kind'], ok: false, error: o.error },
  );
}

/**
 * Each configured broker's first check, run once at server boot without holding it up: a
 * broker its adapter refuses (`Unsupported`: a Redis Cluster node, a Redis older than 6.2, a
 * system not supported yet) or cannot reach yet is reported with its id and reason. The pages
 * still show every other broker; the refused one shows the same reason on its card.
 */
export interface BootRefusal {
  id: string;
  code: string;
  message: string;
}
export async function bootCheck(): Promise<BootRefusal[]> {
  const out = await Promise.all(
    listBrokerConfigs().map(async (b): Promise<BootRefusal | null> => {
      try {
        await read(b.id, 'boot check', (a) => a.capabilities());
        return null;
      } catch (e) {
        const err = toConsoleError(e);
        return { id: b.id, code: err.code, message: err.message };
      }
    }),
  );
  return out.filter((x): x is BootRefusal => x !== null);
}
