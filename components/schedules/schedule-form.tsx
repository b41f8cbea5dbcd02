'use client';
import { useState } from 'react';
import { ReasonField } from '@/components/audit/reason-field';
import { useBrokerAction } from '@/components/actions/use-broker-action';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { ErrorBox } from '@/components/ui/states';
import { createScheduleAction, editScheduleAction, previewScheduleAction } from '@/lib/actions/schedule-actions';
import type { ActionResponse } from '@/lib/actions/response';
import type { Schedule, SchedulePreview } from '@/lib/brokers/schedule';
import type { SchedulesDecl } from '@/lib/brokers/schedule-model';
import { SchedulePreviewView } from './schedule-preview';

type Values = { name: string; cron: string; timeZone: string; task: string; queue: string; fields: Record<string, string> };

function initial(decl: SchedulesDecl, s?: Schedule): Values {
  const fields = Object.fromEntries((decl.actions.create?.fields ?? []).map((f) => [f.key, f.default ?? '']));
  if (s?.payload && 'payload' in fields) fields.payload = s.payload;
  return {
    name: s?.name ?? '',
    cron: s?.cron ?? '',
    timeZone: s?.timeZone ?? decl.timeZones?.[0] ?? 'UTC',
    task: s?.task ?? '',
    queue: s?.queue ?? '',
    fields,
  };
}

/** A button that opens the dialog the view holds (outside the rows: an edit replaces the row). */
export function ScheduleFormButton({
  editing,
  disabledReason,
  onOpen,
}: {
  editing?: Schedule;
  disabledReason?: string;
  onOpen: () => void;
}) {
  return (
    <Button
      size="sm"
      variant={editing ? 'secondary' : 'primary'}
      disabled={!!disabledReason}
      title={disabledReason}
      data-testid={editing ? 'schedule-edit' : 'schedule-create'}
      onClick={onOpen}
    >
      {editing ? 'Edit' : 'New schedule'}
    </Button>
  );
}

/** Create a schedule, or edit one (`editing`) as the system does it; typed fields, a preview of the exact calls. */
export function ScheduleFormDialog({
  brokerId,
  decl,
  editing,
  onClose,
}: {
  brokerId: string;
  decl: SchedulesDecl;
  editing?: Schedule;
  onClose: () => void;
}) {
  const create = decl.actions.create;
  const [v, setV] = useState<Values>(() => initial(decl, editing));
  const [confirm, setConfirm] = useState('');
  const [reason, setReason] = useState('');
  const [preview, setPreview] = useState<ActionResponse<SchedulePreview> | null>(null);
  const body = () => ({ ...v, queue: v.queue || undefined, reason: reason.trim() || undefined });
  const m = useBrokerAction(
    brokerId,
    () => (editing ? editScheduleAction(brokerId, { ...body(), id: editing.id, confirm }) : createScheduleAction(brokerId, body())),
    editing ? 'replaced' : 'created',
  );
  if (!create) return null;
  const err = (m.data && !m.data.ok ? m.data.error : null) ?? (preview && !preview.ok ? preview.error : null);
  const fieldErr = (k: string) => err?.fields?.[k];
  const close = () => {
    m.reset();
    onClose();
  };
  const set = (k: keyof Omit<Values, 'fields'>) => (e: { target: { value: string } }) => (
    setV({ ...v, [k]: e.target.value }),
    setPreview(null)
  );
  const input = (k: keyof Omit<Values, 'fields'>, label: string, help?: string) => (
    <label className="grid gap-1">
      <span>{label}</span>
      <input
        className="input font-mono"
        value={v[k]}
        onChange={set(k)}
        data-testid={`schedule-field-${k}`}
        aria-label={label}
        autoComplete="off"
      />
      {help ? <span className="text-xs text-zinc-500 dark:text-zinc-400">{help}</span> : null}
      {fieldErr(k) ? (
        <span className="text-xs text-red-600" data-testid={`schedule-error-${k}`}>
          {fieldErr(k)}
        </span>
      ) : null}
    </label>
  );
  const done = !!m.data?.ok;
  const shown = Object.keys(err?.fields ?? {});
  const known = ['name', 'cron', 'timeZone', 'task', 'queue', 'confirm', 'reason', ...create.fields.map((f) => `fields.${f.key}`)];
  return (
    <>
      <Dialog open onClose={close} title={editing ? `Edit schedule ${editing.name}` : 'New schedule'} testId="schedule-form">
        <form className="grid gap-3 text-sm" onSubmit={(e) => (e.preventDefault(), m.mutate(undefined))}>
          <p className="text-zinc-600 dark:text-zinc-400" data-testid="schedule-form-does">
            {editing ? decl.actions.edit?.does : create.does}
          </p>
          {input('name', 'Name')}
          {input('cron', 'Cron expression', `minute hour day-of-month month day-of-week; at least every ${create.minSeconds} s`)}
          <label className="grid gap-1">
            <span>Time zone</span>
            <input
              className="input font-mono"
              value={v.timeZone}
              onChange={set('timeZone')}
              data-testid="schedule-field-timeZone"
              aria-label="Time zone"
              list="schedule-zones"
              autoComplete="off"
            />
            <datalist id="schedule-zones">
              {(decl.timeZones ?? []).map((z) => (
                <option key={z} value={z} />
              ))}
            </datalist>
            {decl.timeZones ? (
              <span className="text-xs text-zinc-500 dark:text-zinc-400">
                This system evaluates schedules in {decl.timeZones.join(', ')}.
              </span>
            ) : null}
            {fieldErr('timeZone') ? (
              <span className="text-xs text-red-600" data-testid="schedule-error-timeZone">
                {fieldErr('timeZone')}
              </span>
            ) : null}
          </label>
          {input('task', 'Task')}
          {input('queue', 'Queue (optional)')}
          {create.fields.map((f) => (
            <label key={f.key} className="grid gap-1">
              <span>{f.label}</span>
              {f.kind === 'json-object' || f.kind === 'json-list' ? (
                <textarea
                  className="input font-mono"
                  rows={3}
                  value={v.fields[f.key] ?? ''}
                  onChange={(e) => (setV({ ...v, fields: { ...v.fields, [f.key]: e.target.value } }), setPreview(null))}
                  data-testid={`schedule-field-${f.key}`}
                  aria-label={f.label}
                />
              ) : (
                <input
                  className="input font-mono"
                  value={v.fields[f.key] ?? ''}
                  onChange={(e) => (setV({ ...v, fields: { ...v.fields, [f.key]: e.target.value } }), setPreview(null))}
                  data-testid={`schedule-field-${f.key}`}
                  aria-label={f.label}
                  inputMode={f.kind === 'integer' ? 'numeric' : undefined}
                />
              )}
              {f.help ? <span className="text-xs text-zinc-500 dark:text-zinc-400">{f.help}</span> : null}
              {fieldErr(`fields.${f.key}`) ? (
                <span className="text-xs text-red-600" data-testid={`schedule-error-${f.key}`}>
                  {fieldErr(`fields.${f.key}`)}
                </span>
              ) : null}
            </label>
          ))}
          {editing ? (
            <label className="grid gap-1">
              <span>
                Type <strong className="font-mono">{editing.name}</strong> to confirm
              </span>
              <input
                className="input font-mono"
                value={confirm}
                onChange={(e) => setConfirm(e.target.value)}
                data-testid="schedule-confirm-input"
                aria-label="Schedule name to confirm"
                autoComplete="off"
              />
              {fieldErr('confirm') ? <span className="text-xs text-red-600">{fieldErr('confirm')}</span> : null}
            </label>
          ) : null}
          <ReasonField value={reason} onChange={setReason} required={!!editing} error={fieldErr('reason')} disabled={done} />
          {preview?.ok ? <SchedulePreviewView preview={preview.data} /> : null}
          {done && m.data?.ok ? (
            <p role="status" data-testid="action-outcome" className="font-semibold text-emerald-700 dark:text-emerald-400">
              {m.data.data.message}
            </p>
          ) : null}
          {err && (!shown.length || shown.some((k) => !known.includes(k))) ? <ErrorBox code={err.code} message={err.message} /> : null}
          <div className="flex justify-end gap-2">
            <Button onClick={close} data-testid="confirm-cancel">
              {done ? 'Close' : 'Cancel'}
            </Button>
            {!done ? (
              <>
                <Button
                  data-testid="schedule-preview"
                  onClick={async () =>
                    setPreview(await previewScheduleAction(brokerId, { ...body(), ...(editing ? { replaces: editing.id } : {}) }))
                  }
                >
                  Preview
                </Button>
                <Button
                  type="submit"
                  variant="primary"
                  disabled={m.isPending || (!!editing && (confirm !== editing.name || !reason.trim()))}
                  data-testid="confirm-submit"
                >
                  {m.isPending ? 'Sending…' : editing ? 'Replace' : 'Create'}
                </Button>
              </>
            ) : null}
          </div>
        </form>
      </Dialog>
    </>
  );
}
