'use client';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmAction } from '@/components/actions/confirm-action';
import { Card, CardHeader } from '@/components/ui/card';
import { ErrorBox, Loading } from '@/components/ui/states';
import type { TaskFamily } from '@/lib/brokers/family/schema';
import { describeError } from '@/lib/client/api';
import { familyKey, useFamily } from '@/lib/client/family';
import { useOverview } from '@/lib/client/hooks';
import { FamilyGroups, FamilyTree } from './family-tree';
import { FamilyMemberRow } from './family-member';
import { DeleteFamilyButton } from './delete-family-button';
import { taskWords } from '@/components/jobs/task-words';

/** The task family on a task or dead-letter page: shown where the broker declares it
 *  (capability `family`), its reason where it does not. */
export function FamilyPanel({ brokerId, id }: { brokerId: string; id: string }) {
  const o = useOverview(brokerId).data;
  const caps = o?.capabilities;
  const deleteDecl = o?.model?.actions.deleteFamily;
  const cap = caps?.family;
  // The system's own word for its work ("job" on SDJ and QueueFlow, "task" elsewhere).
  const noun = taskWords(o?.model).noun;
  const title = `${noun.charAt(0).toUpperCase()}${noun.slice(1)} family`;
  const q = useFamily(brokerId, id, cap?.on === true);
  // While a replay dialog is open the family it was opened from stays on screen: the replay
  // refreshes the family, and the failed member leaving it must not take its outcome away.
  const [held, setHeld] = useState<TaskFamily | null>(null);
  const shown = held ?? q.data;
  if (!cap) return null;
  if (!cap.on)
    return (
      <p className="mt-4 text-sm text-zinc-500 dark:text-zinc-400" data-testid="family-off">
        {title}: not shown on this broker: {cap.why ?? 'not available'}.
      </p>
    );
  const err = q.error ? describeError(q.error) : null;
  return (
    <Card className="mt-4" testId="family-panel">
      <CardHeader title={title}>
        {q.data ? (
          <span className="text-xs text-zinc-500 dark:text-zinc-400" data-testid="family-count">
            {q.data.capped
              ? `at least ${q.data.members.length} members (showing the first ${q.data.members.length})`
              : `${q.data.members.length} member(s)`}
          </span>
        ) : null}
      </CardHeader>
      <div className="space-y-4 p-4 text-sm">
        {err && !held ? (
          <ErrorBox {...err} />
        ) : !shown ? (
          <Loading />
        ) : (
          <FamilyBody
            brokerId={brokerId}
            noun={noun}
            f={shown}
            replay={caps.replay}
            onDialog={(open) => setHeld(open && q.data ? q.data : null)}
          />
        )}
        {shown && deleteDecl && shown.parent === null && shown.children.length > 0 ? (
          <DeleteFamilyButton
            brokerId={brokerId}
            id={shown.id}
            members={shown.members.length}
            capped={shown.capped}
            decl={deleteDecl}
            disabledReason={caps.discard.on ? undefined : (caps.discard.why ?? 'delete unavailable')}
          />
        ) : null}
      </div>
    </Card>
  );
}

function FamilyBody({
  brokerId,
  noun,
  f,
  replay,
  onDialog,
}: {
  brokerId: string;
  noun: string;
  f: TaskFamily;
  replay: { on: boolean; why?: string };
  onDialog: (open: boolean) => void;
}) {
  const qc = useQueryClient();
  return (
    <>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
        <dt className="text-zinc-500 dark:text-zinc-400">Root</dt>
        <dd>{f.root ? <FamilyMemberRow brokerId={brokerId} m={f.root} /> : `this ${noun}`}</dd>
        <dt className="text-zinc-500 dark:text-zinc-400">Parent</dt>
        <dd>{f.parent ? <FamilyMemberRow brokerId={brokerId} m={f.parent} /> : 'none known'}</dd>
        <dt className="text-zinc-500 dark:text-zinc-400">Children</dt>
        <dd data-testid="family-children">
          {f.children.length === 0
            ? 'none known'
            : f.children.map((c) => (
                <div key={c.id}>
                  <FamilyMemberRow brokerId={brokerId} m={c} />
                </div>
              ))}
        </dd>
      </dl>
      {f.cycle.length > 0 ? (
        <p className="text-red-700 dark:text-red-400" data-testid="family-cycle">
          The parent ids loop ({f.cycle.join(' → ')}): the console stopped following them there.
        </p>
      ) : null}
      {f.blocks.length > 0 ? (
        <div className="rounded border border-red-300 p-3 dark:border-red-800" data-testid="family-blocks">
          <h3 className="mb-2 font-semibold text-red-700 dark:text-red-400">Blocked by a failed member</h3>
          {f.blocks.map((b) => {
            const by = f.members.find((m) => m.id === b.by) ?? (f.self.id === b.by ? f.self : null);
            return (
              <div key={`${b.by}-${b.waiting.id}`} className="mb-2 space-y-1" data-testid="family-block">
                <div>
                  {by ? <FamilyMemberRow brokerId={brokerId} m={by} current={by.id === f.id} /> : b.by} blocks{' '}
                  <FamilyMemberRow brokerId={brokerId} m={b.waiting} />
                </div>
                <p className="text-xs text-zinc-600 dark:text-zinc-400">{b.why}</p>
                {by?.link === 'dead' ? (
                  <ConfirmAction
                    kind="replay"
                    brokerId={brokerId}
                    ids={[by.id]}
                    disabledReason={replay.on ? undefined : (replay.why ?? 'replay unavailable')}
                    onOpenChange={onDialog}
                    onDone={() => void qc.invalidateQueries({ queryKey: familyKey(brokerId, f.id) })}
                  />
                ) : null}
              </div>
            );
          })}
        </div>
      ) : null}
      <FamilyGroups brokerId={brokerId} groups={f.groups} />
      <FamilyTree brokerId={brokerId} f={f} />
      {f.unseen.length > 0 ? (
        <details className="text-xs text-zinc-500 dark:text-zinc-400" data-testid="family-unseen">
          <summary>What the console cannot see here</summary>
          <ul className="mt-1 list-disc pl-5">
            {f.unseen.map((u) => (
              <li key={u}>{u}</li>
            ))}
          </ul>
        </details>
      ) : null}
    </>
  );
}
