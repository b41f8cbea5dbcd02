import type { WorkerInfo } from '@/lib/brokers/schema';
import { Badge, type Tone } from '@/components/ui/badge';

const TONE: Record<WorkerInfo['status'], Tone> = { alive: 'green', stale: 'yellow', dead: 'red' };

export function WorkerStatus({ status }: { status: WorkerInfo['status'] }) {
  return (
    <Badge tone={TONE[status]} testId="worker-status">
      {status}
    </Badge>
  );
}
