import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { brokerList } from '@/lib/brokers/service';
import { segment } from '@/app/_lib/params';
import { requireReader } from '@/lib/auth/current';

export const dynamic = 'force-dynamic';

/** An unknown broker id is a 404 for every page below it. */
export default async function BrokerLayout({ children, params }: { children: ReactNode; params: Promise<{ brokerId: string }> }) {
  await requireReader();
  const { brokerId } = await params;
  if (!brokerList().some((b) => b.id === segment(brokerId))) notFound();
  return <>{children}</>;
}
