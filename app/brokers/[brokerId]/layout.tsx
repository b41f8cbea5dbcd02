import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { brokerList } from '@/lib/brokers/service';

export const dynamic = 'force-dynamic';

/** An unknown broker id is a 404 for every page below it. */
export default async function BrokerLayout({ children, params }: { children: ReactNode; params: Promise<{ brokerId: string }> }) {
  const { brokerId } = await params;
  if (!brokerList().some((b) => b.id === decodeURIComponent(brokerId))) notFound();
  return <>{children}</>;
}
