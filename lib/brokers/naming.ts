// How a broker is named wherever the console names one: its system and its store, apart
// ("Celery · Redis", "potatoq · SQLite"). Two systems on one store (Celery and potatoq on Redis)
// would read alike by the store alone. Client-safe: no server imports.
import type { BrokerKind, SystemKind } from './model';

/** A configured broker as the pages list it (service.brokerList): from its configuration
 *  alone, so a broker that never answered is named like the others. */
export interface BrokerEntry {
  id: string;
  name: string;
  /** The store code (`sqlite`, `redis`, ...): for machines (health, API), not for reading. */
  kind: BrokerKind;
  system: SystemKind;
  /** The system's own name ("potatoq", "Celery", "QueueFlow", "Simple Durable Jobs"). */
  systemLabel: string;
  /** The store's name ("SQLite", "Redis", "PostgreSQL"). */
  storeLabel: string;
}

/** "Celery · Redis": the system, then its store. */
export const brokerBadge = (b: Pick<BrokerEntry, 'systemLabel' | 'storeLabel'>): string => `${b.systemLabel} · ${b.storeLabel}`;
