'use client';
import { RevealPanel } from '@/components/auth/reveal-panel';
import { useOverview } from '@/lib/client/hooks';
import { isRedacted } from '@/lib/redaction';
import type { DeadDetail, TaskDetail } from '@/lib/brokers/schema';
import { Section } from './detail-parts';
import { PayloadView } from './payload-view';
import { RawView } from './raw-view';
import { ResultView } from './result-view';
import { taskWords } from './task-words';

/** What a task page and a dead-letter page both show below their header: the decoded
 *  payload (with the audited reveal when arguments are hidden), the raw JSON and the result. */
export function MessageSections({ brokerId, kind, item }: { brokerId: string; kind: 'task' | 'dead'; item: TaskDetail | DeadDetail }) {
  // The arguments as this system shapes and names them (its adapter's `model.task`).
  const words = taskWords(useOverview(brokerId).data?.model);
  const shape = words.payload;
  return (
    <>
      <Section title="Payload" testId="payload-section">
        <PayloadView payload={item.payload} shape={shape} />
        {isRedacted(item) ? <RevealPanel brokerId={brokerId} kind={kind} id={item.id} shape={shape} /> : null}
      </Section>
      <Section title="Raw JSON" testId="raw-section">
        <RawView raw={item.raw} size={item.rawSize} truncated={item.rawTruncated} />
      </Section>
      <Section title="Stored result" testId="result-section">
        <ResultView result={item.result} nameLabel={words.name} />
      </Section>
    </>
  );
}
