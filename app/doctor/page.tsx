import type { Metadata } from 'next';
import { DoctorTable } from '@/components/doctor/doctor-table';
import { ErrorBox, PageTitle } from '@/components/ui/states';
import { currentPrincipal, requireReader } from '@/lib/auth/current';
import { runDoctor } from '@/lib/doctor/run';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Doctor' };

/**
 * The doctor (the same checks as `npm run doctor`): operators only, since it names each
 * broker's server, its login's permissions and tags. There is no separate admin role: the
 * operator is the console's highest. Every broker is checked afresh on each load.
 */
export default async function DoctorPage() {
  await requireReader();
  if ((await currentPrincipal())?.role !== 'operator')
    return <ErrorBox code="Forbidden" message="the doctor is for operators: it names each broker's server and its login's permissions" />;
  const brokers = await runDoctor();
  return (
    <>
      <PageTitle sub="Each configured broker: its system and version, what the console needs from its login, and a verdict">
        Doctor
      </PageTitle>
      <DoctorTable brokers={brokers} />
    </>
  );
}
