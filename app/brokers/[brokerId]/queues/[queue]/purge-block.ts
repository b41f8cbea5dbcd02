import type { QueryClient } from '@tanstack/react-query';
import type { BrokerOverview } from '@/lib/brokers/schema';
import { qk } from '@/lib/client/query-keys';

/** Why the purge button is disabled, from the prefetched capabilities (the server refuses again). */
export function getPurgeBlock(qc: QueryClient, brokerId: string): string | undefined {
  const o = qc.getQueryData<BrokerOverview>(qk.overview(brokerId));
  const cap = o?.capabilities.purge;
  return cap && !cap.on ? (cap.why ?? 'purge is not available on this broker') : undefined;
}
