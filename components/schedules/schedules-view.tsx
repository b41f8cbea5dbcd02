'use client';
import Link from 'next/link';
import { Badge } from '@/components/ui/badge';
import { Card, CardHeader } from '@/components/ui/card';
import { ExportLinks } from '@/components/ui/export-links';
import { ErrorBox, Loading } from '@/components/ui/states';
import { Ago } from '@/components/ui/time';
import type { Schedule, ScheduleAction } from '@/lib/brokers/schedule';
import type { SchedulesDecl } from '@/lib/brokers/schedule-model';
import { describeError } from '@/lib/client/api';
import { useOverview } from '@/lib/client/hooks';
import { visible } from '@/lib/text/visible';
import { useState } from 'react';
import { ScheduleActionButton, ScheduleActionDialog } from './schedule-action';
import { ScheduleFormButton, ScheduleFormDialog } from './schedule-form';

/** The open dialog: held here, not in a row, so it outlives the row it acts on. */
type Open = { kind: 'action'; action: ScheduleAction; schedule: Schedule } | { kind: 'form'; schedule?: Schedule } | null;
import { useSchedules } from './use-schedules';

const ACTIONS: Array<[ScheduleAction, keyof SchedulesDecl['actions']]> = [
  ['run-now', 'runNow'],
  ['pause', 'pause'],
  ['resume', 'resume'],
  ['delete', 'delete'],
];

function Problems({ s }: { s: Schedule }) {
  if (!s.problems.length) return <span className="text-zinc-400">—</span>;
  return (
    <ul className="grid gap-1">
      {s.problems.map((p, i) => (
        <li key={i} data-testid={`schedule-problem-${p.kind}`}>
          <Badge tone="red">{p.kind === 'missed' ? 'missed firing' : 'failing'}</Badge>{' '}
          <span className="text-xs text-zinc-600 dark:text-zinc-400">{visible(p.cause)}</span>
        </li>
      ))}
    </ul>
  );
}

function Last({ brokerId, s }: { brokerId: string; s: Schedule }) {
  if (!s.last) return <span className="text-zinc-400">never</span>;
  const l = s.last;
  return (
    <span className="grid gap-0.5">
      <Ago iso={l.at} />
      {l.jobId ? (
        <Link
          className="link font-mono text-xs"
          href={`/brokers/${encodeURIComponent(brokerId)}/jobs/${encodeURIComponent(l.jobId)}`}
          data-testid="schedule-last-job"
        >
          {l.jobId.slice(0, 8)}… {l.state ?? ''}
        </Link>
      ) : null}
      {l.note ? <span className="text-xs text-zinc-500 dark:text-zinc-400">{visible(l.note)}</span> : null}
    </span>
  );
}

/** The Schedules tab: every schedule the adapter reads, with what its system lets the operator do. */
export function SchedulesView({ brokerId, decl }: { brokerId: string; decl: SchedulesDecl }) {
  const q = useSchedules(brokerId);
  const o = useOverview(brokerId);
  const [open, setOpen] = useState<Open>(null);
  const shut = () => setOpen(null);
  const write = o.data?.capabilities['schedules:write'];
  const off = write && !write.on ? (write.why ?? 'not allowed') : !write ? 'loading…' : undefined;
  return (
    <div className="grid gap-4">
      <Card testId="schedules">
        <CardHeader title="Schedules">
          <ExportLinks brokerId={brokerId} list="schedules" noun="schedules" filters={{}} />
          {decl.actions.create ? <ScheduleFormButton disabledReason={off} onOpen={() => setOpen({ kind: 'form' })} /> : null}
        </CardHeader>
        {q.error && !q.data ? (
          <div className="p-4">
            <ErrorBox {...describeError(q.error)} />
          </div>
        ) : null}
        {!q.data && !q.error ? <Loading /> : null}
        {q.data && q.data.schedules.length === 0 ? (
          <p className="p-4 text-sm text-zinc-500" data-testid="schedules-empty">
            No schedules.
          </p>
        ) : null}
        {q.data && q.data.schedules.length ? (
          <div className="overflow-x-auto">
            <table className="w-full text-sm">
              <thead className="text-left text-xs text-zinc-500">
                <tr>
                  <th className="px-3 py-2">Name</th>
                  <th className="px-3 py-2">When</th>
                  <th className="px-3 py-2">Next</th>
                  <th className="px-3 py-2">Last firing</th>
                  <th className="px-3 py-2">Problems</th>
                  <th className="px-3 py-2" />
                </tr>
              </thead>
              <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
                {q.data.schedules.map((s) => (
                  <tr key={s.id} data-testid="schedule-row" data-schedule={s.name} className="align-top">
                    <td className="px-3 py-2">
                      <span className="font-medium">{visible(s.name)}</span>
                      {s.paused ? <Badge tone="yellow">paused</Badge> : null}
                      {s.task ? (
                        <div className="font-mono text-xs text-zinc-500">
                          {visible(s.task)}
                          {s.queue ? ` → ${visible(s.queue)}` : ''}
                        </div>
                      ) : null}
                    </td>
                    <td className="px-3 py-2">
                      <div data-testid="schedule-words">{visible(s.words)}</div>
                      {s.cron ? (
                        <div className="font-mono text-xs text-zinc-500" data-testid="schedule-cron">
                          {visible(s.cron)}
                          {s.timeZone ? ` (${s.timeZone})` : ''}
                        </div>
                      ) : null}
                    </td>
                    <td className="px-3 py-2">
                      {s.nextAt ? <Ago iso={s.nextAt} /> : <span className="text-zinc-400">{s.paused ? 'paused' : '—'}</span>}
                    </td>
                    <td className="px-3 py-2">
                      <Last brokerId={brokerId} s={s} />
                    </td>
                    <td className="px-3 py-2">
                      <Problems s={s} />
                    </td>
                    <td className="px-3 py-2">
                      <div className="flex flex-wrap justify-end gap-1">
                        {ACTIONS.filter(([, k]) => decl.actions[k]).map(([a, k]) => (
                          <ScheduleActionButton
                            key={a}
                            action={a}
                            decl={decl.actions[k]!}
                            // Pause on a paused schedule (or resume on a running one) says so instead of vanishing.
                            disabledReason={
                              off ?? (a === 'pause' && s.paused ? 'already paused' : a === 'resume' && !s.paused ? 'not paused' : undefined)
                            }
                            onOpen={() => setOpen({ kind: 'action', action: a, schedule: s })}
                          />
                        ))}
                        {decl.actions.edit ? (
                          <ScheduleFormButton editing={s} disabledReason={off} onOpen={() => setOpen({ kind: 'form', schedule: s })} />
                        ) : null}
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        {q.data?.notes.length ? (
          <ul className="grid gap-1 p-4 text-xs text-zinc-500" data-testid="schedules-notes">
            {q.data.notes.map((n) => (
              <li key={n}>{visible(n)}</li>
            ))}
          </ul>
        ) : null}
      </Card>
      {open?.kind === 'action' ? (
        <ScheduleActionDialog
          brokerId={brokerId}
          schedule={open.schedule}
          action={open.action}
          decl={decl.actions[ACTIONS.find(([a]) => a === open.action)![1]]!}
          onClose={shut}
        />
      ) : null}
      {open?.kind === 'form' ? <ScheduleFormDialog brokerId={brokerId} decl={decl} editing={open.schedule} onClose={shut} /> : null}
      <Card testId="schedules-cannot-see">
        <CardHeader title="What the console cannot see here" />
        <ul className="grid list-disc gap-1 p-4 pl-8 text-sm text-zinc-600 dark:text-zinc-400">
          {decl.cannotSee.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </ul>
      </Card>
    </div>
  );
}
