'use client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/actions/confirm-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Empty, ErrorBox, Loading } from '@/components/ui/states';
import { targetLink, targetWhere } from '@/lib/alerts/links';
import type { AlertTarget } from '@/lib/alerts/schema';
import { describeError, getJson, postJson } from '@/lib/client/api';
import { ALERTS_KEY, type AlertsAnswer } from './alerts-types';
import { TargetForm } from './target-form';
import { WebhookCard } from './webhook-card';

type Row = AlertsAnswer['targets'][number];

function Reading({ row }: { row: Row }) {
  if (row.problem) return <span className="text-red-600">not watched: {row.problem}</span>;
  const r = row.reading;
  if (!r) return <span className="text-zinc-500">not read yet</span>;
  if (r.value === null) return <span className="text-zinc-500">unknown: {r.unknown}</span>;
  return <Badge tone={r.breached ? 'red' : 'green'}>{`${Math.round(r.value * 100) / 100}${r.breached ? ' · crossed' : ''}`}</Badge>;
}

const where = (t: AlertTarget) => targetWhere(t, ' / ');

/** The targets (config file's read-only, console's editable by operators), each with its last reading and link; the webhook. */
export function AlertsView() {
  const qc = useQueryClient();
  const q = useQuery({
    queryKey: ALERTS_KEY,
    queryFn: ({ signal }) => getJson<AlertsAnswer>('/api/alerts/targets', signal),
    refetchInterval: 15_000,
  });
  const [editing, setEditing] = useState<AlertTarget | null | 'new'>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const [removeState, setRemoveState] = useState<{ pending: boolean; done: boolean; error: { code: string; message: string } | null }>({
    pending: false,
    done: false,
    error: null,
  });
  const refresh = () => void qc.invalidateQueries({ queryKey: ALERTS_KEY });
  if (q.isPending) return <Loading />;
  if (q.error) return <ErrorBox {...describeError(q.error)} />;
  const a = q.data;
  async function remove(id: string) {
    setRemoveState({ pending: true, done: false, error: null });
    try {
      await postJson('/api/alerts/targets/remove', { id, ...(reason.trim() ? { reason } : {}) });
      setRemoveState({ pending: false, done: true, error: null });
      refresh();
    } catch (e) {
      setRemoveState({ pending: false, done: false, error: describeError(e) });
    }
  }
  const removingRow = a.targets.find((t) => t.id === removing);
  return (
    <div className="grid gap-4">
      <Card testId="alert-targets">
        <CardHeader title="Queue-health targets">
          {a.canEdit && a.brokers.length ? (
            <Button size="sm" onClick={() => setEditing('new')} data-testid="alert-add">
              Add a target
            </Button>
          ) : null}
        </CardHeader>
        {editing ? (
          <TargetForm editing={editing === 'new' ? null : editing} brokers={a.brokers} onDone={() => (setEditing(null), refresh())} />
        ) : null}
        <div className="overflow-x-auto p-4 text-sm">
          {a.targets.length ? (
            <table className="w-full text-left">
              <thead>
                <tr className="text-xs text-zinc-500">
                  <th className="py-1 pr-3">Id</th>
                  <th className="pr-3">Where</th>
                  <th className="pr-3">Alert when</th>
                  <th className="pr-3">Now</th>
                  <th className="pr-3">Source</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {a.targets.map((row) => (
                  <tr
                    key={`${row.origin}/${row.id}`}
                    className="border-t border-zinc-200 dark:border-zinc-800"
                    data-testid={`alert-row-${row.id}`}
                  >
                    <td className="py-1.5 pr-3 font-mono">{row.id}</td>
                    <td className="pr-3">
                      {row.target ? (
                        <Link className="link" href={targetLink(row.target, null)}>
                          {where(row.target)}
                        </Link>
                      ) : (
                        '—'
                      )}
                    </td>
                    <td className="pr-3">
                      {row.target
                        ? `${row.target.kind}${row.target.threshold !== undefined ? ` > ${row.target.threshold}` : ''} for ${row.target.for} (${row.target.severity})`
                        : '—'}
                    </td>
                    <td className="pr-3">
                      <Reading row={row} />
                    </td>
                    <td className="pr-3 text-xs" data-testid={`alert-origin-${row.id}`}>
                      {row.origin === 'config' ? 'from the config file (read-only)' : `edited in the console by ${row.updatedBy ?? '—'}`}
                    </td>
                    <td className="flex gap-1 py-1.5">
                      {a.canEdit && row.origin === 'console' ? (
                        <>
                          {row.target ? (
                            <Button size="sm" onClick={() => setEditing(row.target)} data-testid={`alert-edit-${row.id}`}>
                              Edit
                            </Button>
                          ) : null}
                          <Button
                            size="sm"
                            variant="danger"
                            onClick={() => (
                              setRemoving(row.id),
                              setReason(''),
                              setRemoveState({ pending: false, done: false, error: null })
                            )}
                            data-testid={`alert-remove-${row.id}`}
                          >
                            Remove
                          </Button>
                        </>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <Empty>No targets yet{a.canEdit ? ': add one, or list them in the config file (docs/alerts.md).' : '.'}</Empty>
          )}
        </div>
      </Card>
      <WebhookCard status={a.webhook} canEdit={a.canEdit} onChanged={refresh} />
      <ConfirmDialog
        open={!!removing}
        onClose={() => setRemoving(null)}
        brokerId={removingRow?.target?.broker ?? ''}
        title={`Remove target ${removing ?? ''}`}
        testId="alert-remove-dialog"
        danger
        reason={{ value: reason, onChange: setReason, required: false }}
        submitLabel="Remove target"
        pendingLabel="Removing…"
        pending={removeState.pending}
        done={removeState.done}
        outcome={removeState.done ? <p>Removed: it is no longer watched, nor in /metrics or the rules.</p> : undefined}
        error={removeState.error}
        onSubmit={() => void (removing && remove(removing))}
      >
        <p>Stops watching this target: its series leave /metrics and its rule leaves /api/alerts/rules. Nothing on the broker changes.</p>
      </ConfirmDialog>
    </div>
  );
}
