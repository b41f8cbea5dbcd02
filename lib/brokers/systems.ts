import 'server-only';
import { ConsoleError } from './errors';
import type { BrokerKind, SystemKind } from './schema';
import { celerySystem } from './celery/system';
import { potatoqSystem } from './potatoq/system';
import { queueflowSystem } from './queueflow/system';
import { sdjSystem } from './sdj/system';
import { adapterContext } from './systems-context';
import type { BrokerAdapter, BrokerConfig, SystemModule } from './types';

/**
 * The table of queue systems: a broker entry's `kind` -> its module (URL schemes, option
 * schema, adapter factory). Adding a system is one entry here plus its folder
 * (docs/adding-a-system.md). Read by lib/config.ts at boot and by the registry.
 */

export const SYSTEMS: Record<SystemKind, SystemModule> = {
  potatoq: potatoqSystem,
  celery: celerySystem,
  sdj: sdjSystem,
  queueflow: queueflowSystem,
};

/** The store behind a configured broker, for display (`sqlite`, `postgres`, ...). */
export function storeOf(config: Pick<BrokerConfig, 'kind' | 'url'>): BrokerKind {
  return SYSTEMS[config.kind].storeOf(config.url);
}

/** How an operator reads a configured broker's system and store ("Celery", "Redis"): from the
 *  configuration alone, so a broker that never answered is named too. */
export function brokerNames(config: Pick<BrokerConfig, 'kind' | 'url'>): { systemLabel: string; storeLabel: string } {
  const system = SYSTEMS[config.kind];
  let storeLabel = 'unknown';
  try {
    storeLabel = system.storeLabel(config.url);
  } catch {
    // A bad scheme stops startup; this only keeps a name when it did not.
  }
  return { systemLabel: system.label, storeLabel };
}

/** A configured broker's adapter; Unsupported while its system (or store) is not supported yet. */
export function createAdapter(config: BrokerConfig): BrokerAdapter {
  const system = SYSTEMS[config.kind];
  const factory = system.factoryFor(config.url);
  if (!factory) throw new ConsoleError('Unsupported', `${storeOf(config)} brokers are not supported by this version of the console yet`);
  return factory(config, adapterContext());
}
