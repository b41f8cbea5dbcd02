'use client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useMoveTargets } from '@/components/actions/move-action';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Empty, ErrorBox, Loading } from '@/components/ui/states';
import type { StoredMapping } from '@/lib/brokers/mapping/schema';
import { brokerPath, describeError, getJson, postJson } from '@/lib/client/api';
import { draftOf, emptyDraft, type MappingDraft } from './mapping-fields';
import { MappingForm } from './mapping-form';
import { TaskCoverage } from './task-coverage';

const argsText = (m: StoredMapping['mapping']) =>
  m.args.length ? m.args.map((k, i) => `args[${i}] → ${k}`).join(', ') : 'no positional arguments';

/**
 * The call mappings from this broker to brokers of another call model: the list (who changed
 * each last) and the editor. Which brokers are offered is the server's pairing (mapped: true).
 */
export function MappingsView({ brokerId }: { brokerId: string }) {
  const qc = useQueryClient();
  const key = ['broker', brokerId, 'mappings'];
  const list = useQuery({ queryKey: key, queryFn: ({ signal }) => getJson<StoredMapping[]>(brokerPath(brokerId, '/mappings'), signal) });
  const { targets } = useMoveTargets(brokerId, true);
  const mapped = (targets.data ?? []).filter((t) => t.pairing.on && t.pairing.mapped);
  const names = useQuery({
    queryKey: ['broker', brokerId, 'task-names'],
    queryFn: ({ signal }) => getJson<{ names: string[] }>(brokerPath(brokerId, '/task-names'), signal),
  });
  const [draft, setDraft] = useState<MappingDraft>(emptyDraft());
  const [removeError, setRemoveError] = useState<string | null>(null);
  const refresh = () => void qc.invalidateQueries({ queryKey: key });
  async function remove(m: StoredMapping['mapping']) {
    setRemoveError(null);
    try {
      await postJson(brokerPath(brokerId, '/mappings/remove'), { target: m.target, task: m.task });
      refresh();
    } catch (e) {
      setRemoveError(describeError(e).message);
    }
  }
  return (
    <div className="grid gap-4">
      <Card testId="mappings-list">
        <CardHeader title="Call mappings from this broker" />
        <div className="p-4 text-sm">
          {list.isPending ? <Loading /> : null}
          {list.error ? <ErrorBox {...describeError(list.error)} /> : null}
          {list.data && !list.data.length ? <Empty>No call mappings yet.</Empty> : null}
          {removeError ? <ErrorBox code="Error" message={removeError} /> : null}
          <ul className="grid gap-2">
            {list.data?.map((s) => (
              <li
                key={`${s.mapping.target}/${s.mapping.task}`}
                className="flex flex-wrap items-center justify-between gap-2"
                data-testid={`mapping-row-${s.mapping.task}`}
              >
                <span>
                  <strong className="font-mono">{s.mapping.task}</strong> → {s.mapping.target}
                  {s.mapping.targetTask ? <span className="font-mono"> {s.mapping.targetTask}</span> : null}: {argsText(s.mapping)}
                  <span className="text-xs text-zinc-500">
                    {' '}
                    · {s.updatedBy}, {s.updatedAt}
                  </span>
                </span>
                <span className="flex gap-2">
                  <Button size="sm" onClick={() => setDraft(draftOf(s.mapping))} data-testid={`mapping-edit-${s.mapping.task}`}>
                    Edit
                  </Button>
                  <Button
                    size="sm"
                    variant="danger"
                    onClick={() => void remove(s.mapping)}
                    data-testid={`mapping-remove-${s.mapping.task}`}
                  >
                    Remove
                  </Button>
                </span>
              </li>
            ))}
          </ul>
        </div>
      </Card>
      <TaskCoverage
        names={names.data?.names ?? []}
        mappings={list.data ?? []}
        onMap={(task) => setDraft({ ...emptyDraft(mapped[0]?.id ?? ''), task })}
      />
      <Card testId="mapping-editor">
        <CardHeader title="Map a task to a broker of another call model" />
        {targets.data && !mapped.length ? (
          <p className="p-4 text-sm" data-testid="mappings-none">
            No configured broker takes this broker&apos;s tasks through a call mapping (each other broker either shares its call model, or
            cannot take them: see Move to broker… on a dead letter).
          </p>
        ) : (
          <MappingForm
            brokerId={brokerId}
            targets={mapped}
            names={names.data?.names ?? []}
            draft={draft}
            onChange={setDraft}
            onSaved={refresh}
          />
        )}
      </Card>
    </div>
  );
}
