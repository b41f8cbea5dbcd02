'use client';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { ReasonField } from '@/components/audit/reason-field';
import { Dialog } from '@/components/ui/dialog';
import { CommandLine } from '@/components/ui/copy-button';
import { TOKEN_PLACEHOLDER, curlBulkStart } from '@/lib/client/curl';
import { ErrorBox } from '@/components/ui/states';
import type { ActionError } from '@/lib/actions/response';
import { controlBulkAction, createBulkAction } from '@/lib/bulk/actions';
import { isBulkMove, type BulkAction, type BulkFilter, type BulkJobView, type BulkOp } from '@/lib/bulk/schema';
import { formatUtc } from '@/lib/text/format';
import { useOverview } from '@/lib/client/hooks';
import { taskWords } from '@/components/jobs/task-words';
import { BulkOutcome } from './bulk-outcome';
import { BulkMoveTarget } from './bulk-move-target';
import { BulkProgress } from './bulk-progress';
import { bulkText, describeFilter, noun, STATE_LABEL } from './bulk-text';
import { useBulkJob, useBulkJobs } from './use-bulk-job';

/**
 * "Replay all matching…": captures the ids matching the list's filter (a snapshot), asks for
 * confirmation with the exact count, then runs the job in batches with progress and controls.
 */
export function BulkAllButton({
  brokerId,
  action,
  filter,
  disabledReason,
  label,
  expectedCount,
  groupLabel,
}: {
  brokerId: string;
  action: BulkAction;
  filter: BulkFilter;
  disabledReason?: string;
  /** The button's text (default "Replay all matching…"), e.g. "Replay all 412 of this group…". */
  label?: string;
  /** The count the operator was shown (a group's size); the dialog says so when the snapshot differs. */
  expectedCount?: number;
  /** What the group filter means to a person (the group's pattern), shown next to its fingerprint. */
  groupLabel?: string;
}) {
  const [open, setOpen] = useState<{ existing: BulkJobView | null } | null>(null);
  const t = bulkText(action, useOverview(brokerId).data?.model);
  const jobs = useBulkJobs(brokerId).data ?? [];
  // Jobs of this action still running here (on this queue, or spanning every queue).
  const live = jobs.filter(
    (j) =>
      j.action === action &&
      (j.state === 'running' || j.state === 'paused') &&
      (!filter.queue || !j.filter.queue || j.filter.queue === filter.queue),
  );
  return (
    <>
      <Button
        size="sm"
        variant="secondary"
        disabled={!!disabledReason}
        title={disabledReason ?? `${t.verb} every ${t.what} matching the current filter, not only the rows shown`}
        onClick={() => setOpen({ existing: null })}
        data-testid={`bulk-all-${action}`}
      >
        {label ?? `${t.verb} all matching…`}
      </Button>
      {live.map((j) => (
        <Button key={j.id} size="sm" variant="ghost" onClick={() => setOpen({ existing: j })} data-testid="bulk-job-open" data-id={j.id}>
          {t.verb} job {STATE_LABEL[j.state]}: {j.progress.processed.toLocaleString()} / {j.progress.total.toLocaleString()}
        </Button>
      ))}
      {open ? (
        <BulkDialog
          brokerId={brokerId}
          action={action}
          filter={filter}
          expectedCount={expectedCount}
          groupLabel={groupLabel}
          existing={open.existing}
          onClose={() => setOpen(null)}
        />
      ) : null}
    </>
  );
}

function BulkDialog({
  brokerId,
  action,
  filter,
  expectedCount,
  groupLabel,
  existing,
  onClose,
}: {
  brokerId: string;
  action: BulkAction;
  filter: BulkFilter;
  expectedCount?: number;
  groupLabel?: string;
  existing: BulkJobView | null;
  onClose: () => void;
}) {
  const qc = useQueryClient();
  // What the action does and a bulk replay's default rate are the adapter's declarations.
  const model = useOverview(brokerId).data?.model;
  const actions = model?.actions;
  const t = bulkText(action, model);
  // Every job can be paced, on every system; a system that declares a default rate for replays
  // (RabbitMQ) starts there, the others at "max" (as fast as the broker takes them).
  const bulkRate = action === 'replay' ? (actions?.replay.bulkRate ?? null) : null;
  const [moveDoes, setMoveDoes] = useState('');
  const explain = isBulkMove(action) ? moveDoes : action === 'revoke' ? actions?.revoke.bulk : actions?.[action].does;
  // The filter is frozen when the dialog opens: the list may change under it. A move adds its
  // target (picked first) to it.
  const [frozen, setFrozen] = useState<BulkFilter>(() => ({ ...filter }));
  const needsTarget = isBulkMove(action) && !frozen.to;
  const [created, setCreated] = useState<BulkJobView | null>(existing);
  const [error, setError] = useState<ActionError | null>(null);
  const [busy, setBusy] = useState(false);
  const [rate, setRate] = useState(bulkRate !== null ? String(bulkRate) : '');
  const [reason, setReason] = useState('');
  const q = useBulkJob(brokerId, created);
  const job = q.data ?? created;

  const call = async (run: () => Promise<{ ok: true; data: BulkJobView } | { ok: false; error: ActionError }>) => {
    setBusy(true);
    setError(null);
    try {
      const r = await run();
      if (!r.ok) return setError(r.error);
      if (!created) setCreated(r.data);
      qc.setQueryData(['bulk', brokerId, r.data.id], r.data);
      void qc.invalidateQueries({ queryKey: ['bulk', brokerId, 'list'] });
    } catch (e) {
      setError({ code: 'Internal', message: e instanceof Error ? e.message : String(e) });
    } finally {
      setBusy(false);
    }
  };
  const snapshot = (f: BulkFilter = frozen) =>
    call(() => createBulkAction(brokerId, { action, filter: f, ...(expectedCount !== undefined ? { expectedCount } : {}) }));
  const control = (op: BulkOp, extra: { confirmCount?: number; rate?: number | null; reason?: string } = {}) => {
    if (job) void call(() => controlBulkAction(brokerId, job.id, op, extra));
  };
  const asked = useRef(false);
  useEffect(() => {
    // Once per dialog, also under Strict Mode's double effects.
    if (asked.current || existing || needsTarget) return;
    asked.current = true;
    void snapshot();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per dialog: the snapshot is taken when it opens, never again when its inputs change
  }, []);
  const close = () => {
    // An unconfirmed snapshot is dropped rather than left waiting.
    if (job && job.state === 'queued') void controlBulkAction(brokerId, job.id, 'cancel');
    onClose();
  };

  const total = job?.progress.total ?? 0;
  const count = `${t.verb} ${total.toLocaleString()} ${noun(t, total)}`;
  const title = !job ? `${t.verb} all matching ${t.whats}` : job.state === 'queued' ? `${count}?` : `${count}: ${STATE_LABEL[job.state]}`;
  return (
    <Dialog open onClose={close} title={title} testId="bulk-dialog" brokerId={brokerId}>
      <div className="grid gap-3 text-sm">
        {needsTarget && !job ? (
          <BulkMoveTarget
            brokerId={brokerId}
            {...(action === 'move-waiting' ? { from: 'waiting' as const, whats: t.whats } : {})}
            onPick={(to, does) => {
              const f = { ...frozen, to };
              setFrozen(f);
              setMoveDoes(does);
              void snapshot(f);
            }}
          />
        ) : null}
        {!job && !error && !needsTarget ? <p data-testid="bulk-snapshotting">Capturing the {t.whats} that match…</p> : null}
        {job ? (
          <>
            <p data-testid="bulk-snapshot">
              <strong data-testid="bulk-count">{total.toLocaleString()}</strong> {noun(t, total)} match
              {job.capped ? ' (the first ones only: more match than one job takes)' : ''} (snapshot taken at{' '}
              <time dateTime={job.snapshotAt}>{formatUtc(job.snapshotAt)}</time>).
            </p>
            <p data-testid="bulk-summary">
              {t.verb} <strong>{total.toLocaleString()}</strong> {noun(t, total)} on broker <strong>{brokerId}</strong>,{' '}
              {describeFilter(job.filter, taskWords(model).nouns)}
              {groupLabel && job.filter.group ? (
                <>
                  {' '}
                  (
                  <span className="font-mono text-xs break-all" data-testid="bulk-group-pattern">
                    {groupLabel}
                  </span>
                  )
                </>
              ) : null}
              .
            </p>
            {job.expectedCount !== null && job.expectedCount !== total ? (
              <p className="text-xs text-amber-700 dark:text-amber-400" data-testid="bulk-count-changed">
                The list showed {job.expectedCount.toLocaleString()}; {total.toLocaleString()} match now (letters arrived or left since).
                Only these {total.toLocaleString()} are touched.
              </p>
            ) : null}
            {job.searchedNewest !== null ? (
              <p className="text-xs text-amber-700 dark:text-amber-400">
                The search only looked at the newest {job.searchedNewest.toLocaleString()} rows.
              </p>
            ) : null}
            <p className="text-zinc-600 dark:text-zinc-400">
              {explain ? `${explain} ` : ''}Only these ids are touched: rows that appear later are left alone, rows that change before their
              batch are reported as skipped.
            </p>
          </>
        ) : null}
        {job && job.state === 'queued' ? (
          <label className="flex items-center gap-2 text-xs">
            Per second (empty: as fast as the broker takes them)
            <input
              type="number"
              min={0.1}
              step="any"
              value={rate}
              onChange={(e) => setRate(e.target.value)}
              placeholder="max"
              className="w-24 rounded border border-zinc-300 px-1 py-0.5 dark:border-zinc-700 dark:bg-zinc-900"
              data-testid="bulk-rate"
            />
          </label>
        ) : null}
        {job && job.state === 'queued' ? (
          <CommandLine
            command={curlBulkStart({
              origin: window.location.origin,
              brokerId,
              jobId: job.id,
              confirmCount: total,
              reason,
              ...(rate.trim() !== '' ? { rate: Number(rate) } : {}),
            })}
            testId="curl-command"
            caption={`Starting this job through the console's API (an API token in ${TOKEN_PLACEHOLDER})`}
            copyLabel="Copy as curl"
          />
        ) : null}
        {job && job.state === 'queued' ? <ReasonField value={reason} onChange={setReason} required error={error?.fields?.reason} /> : null}
        {job && job.state !== 'queued' ? (
          job.state === 'running' || job.state === 'paused' ? (
            <BulkProgress job={job} text={t} busy={busy} onControl={control} />
          ) : (
            <>
              <BulkOutcome job={job} text={t} />
              {job.state === 'failed' && job.stoppedAt ? (
                <div className="flex items-center gap-2 text-xs" data-testid="bulk-stopped-at">
                  <span>
                    Stopped at {(job.stoppedAt.index + 1).toLocaleString()} of {job.progress.total.toLocaleString()}. Resuming tries that
                    batch again (each id is checked again, so nothing is done twice), then the rest.
                  </span>
                  <Button size="sm" disabled={busy} onClick={() => control('resume')} data-testid="bulk-resume-failed">
                    Resume
                  </Button>
                </div>
              ) : null}
            </>
          )
        ) : null}
        {error && !error.fields?.reason ? <ErrorBox code={error.code} message={error.message} /> : null}
        {q.error ? <ErrorBox code="Error" message={q.error.message} /> : null}
        <div className="flex justify-end gap-2">
          <Button onClick={close} data-testid="bulk-close">
            {job && job.state === 'queued' ? 'Cancel' : 'Close'}
          </Button>
          {job && job.state === 'queued' ? (
            <Button
              variant={t.danger ? 'danger' : 'primary'}
              disabled={busy || total === 0 || !reason.trim()}
              data-testid="bulk-confirm"
              onClick={() =>
                control('start', {
                  confirmCount: total,
                  reason: reason.trim(),
                  ...(rate.trim() !== '' ? { rate: Number(rate) } : {}),
                })
              }
            >
              {busy ? 'Starting…' : `${t.verb} ${total.toLocaleString()} ${noun(t, total)}`}
            </Button>
          ) : null}
        </div>
      </div>
    </Dialog>
  );
}
