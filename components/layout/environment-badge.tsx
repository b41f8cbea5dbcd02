'use client';
import { Badge } from '@/components/ui/badge';
import { useEnvironment } from '@/lib/client/environment';
import { environmentTone } from '@/lib/environment/name';

/** The environment's name in its colour (production red), or nothing when none is configured. */
export function EnvironmentBadge({ brokerId, testId = 'environment-badge' }: { brokerId?: string | null; testId?: string }) {
  const name = useEnvironment(brokerId);
  if (!name) return null;
  return (
    <Badge tone={environmentTone(name)} testId={testId} title={`Environment: ${name}`}>
      <span data-environment={name}>{name}</span>
    </Badge>
  );
}

/** A confirmation's line naming where the action lands: "Broker b1 is in production". */
export function EnvironmentNote({ brokerId }: { brokerId: string }) {
  const name = useEnvironment(brokerId);
  if (!name) return null;
  const red = environmentTone(name) === 'red';
  return (
    <p
      data-testid="confirm-environment"
      className={`mb-3 flex items-center gap-2 rounded-md border px-3 py-2 text-sm ${red ? 'border-red-300 bg-red-50 text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-200' : 'border-zinc-200 dark:border-zinc-700'}`}
    >
      <EnvironmentBadge brokerId={brokerId} testId="confirm-environment-badge" />
      <span>
        Broker <strong>{brokerId}</strong> is in <strong>{name}</strong>.
      </span>
    </p>
  );
}
