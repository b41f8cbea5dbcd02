import 'server-only';
import { consoleEntry } from '@/lib/audit/record';
import { getAuditStore } from '@/lib/audit/store';
import { leaseSettings } from '@/lib/leases/hold';
import { getPauseLeaseStore } from '@/lib/leases/store';
import type { AdapterContext } from './adapter-context';

// The one place the console's services are lent to adapters (lib/brokers/adapter-context.ts):
// built once per process, handed to every factory by lib/brokers/systems.ts.

const KEY = Symbol.for('potatoq.console.adapterContext');
type Global = typeof globalThis & { [KEY]?: AdapterContext };

/** Writes an adapter's record to the console's audit trail (POTATOQ_CONSOLE_STATE). */
const writeToTrail: AdapterContext['audit'] = async (r) => (await getAuditStore()).begin(consoleEntry(r));

/**
 * This process's context: the pause leases in the console's state store (one process id) and
 * its audit trail. `o` (tests, benches) replaces a part: a private lease store, an audit sink.
 */
export function adapterContext(o: Partial<AdapterContext> = {}): AdapterContext {
  if (o.leases || o.audit) return { leases: o.leases ?? processContext().leases, audit: o.audit ?? writeToTrail };
  return processContext();
}

function processContext(): AdapterContext {
  const g = globalThis as Global;
  return (g[KEY] ??= { leases: leaseSettings(getPauseLeaseStore), audit: writeToTrail });
}
