// How a broker is named wherever the console names one: its system and its store, apart
// ("Celery · Redis", "potatoq · SQLite"). Two systems on one store (Celery and potatoq on Redis)
// would read alike by the store alone. Client-safe: no server imports.
import { z } from 'zod';
import { ZSystemKind } from './model';

/** A configured broker as the pages list it (service.brokerList): from its configuration
 *  alone, so a broker that never answered is named like the others. One zod definition, the
 *  type inferred (docs/architecture.md). */
export const ZBrokerEntry = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    /** The store code (`sqlite`, `redis`, ...): for machines (health, API), not for reading. */
    kind: z.string().describe('the store code (sqlite, redis, ...)'),
    system: ZSystemKind,
    /** The system's own name ("potatoq", "Celery", "QueueFlow", "Simple Durable Jobs"). */
    systemLabel: z.string(),
    /** The store's name ("SQLite", "Redis", "PostgreSQL"). */
    storeLabel: z.string(),
    /** Its environment ("production") as configured; absent when none is named. */
    environment: z.string().optional().describe('the environment configured for it (production, staging, ...); absent when none'),
  })
  .meta({ id: 'BrokerEntry' });
export type BrokerEntry = z.infer<typeof ZBrokerEntry>;

/** "Celery · Redis": the system, then its store. */
export const brokerBadge = (b: Pick<BrokerEntry, 'systemLabel' | 'storeLabel'>): string => `${b.systemLabel} · ${b.storeLabel}`;
