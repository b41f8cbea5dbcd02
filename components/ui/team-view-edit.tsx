'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, brokerPath, postJson } from '@/lib/client/api';
import { MAX_VIEW_DESCRIPTION, MAX_VIEW_NAME, type TeamView } from '@/lib/views/schema';

// A team view edited in place: its name, its link, its description, sent with the version it was
// read at. The server checks the same rules (each error shown under its field) and refuses an
// edit of a view someone changed since (said here; what was typed stays in the form).

type Field = 'newName' | 'href' | 'description';
const FIELDS: ReadonlyArray<[Field, string]> = [
  ['newName', 'Name'],
  ['href', 'Link'],
  ['description', 'Description'],
];

export function TeamViewEditor({ brokerId, view, onDone }: { brokerId: string; view: TeamView; onDone: () => void }) {
  const qc = useQueryClient();
  const [base, setBase] = useState(view);
  const [form, setForm] = useState<Record<Field, string>>({ newName: view.name, href: view.href, description: view.description });
  const edit = useMutation({
    mutationFn: () => postJson(brokerPath(brokerId, '/views/edit'), { name: base.name, version: base.version, ...form }),
    onSuccess: () => (void qc.invalidateQueries({ queryKey: ['broker', brokerId, 'views'] }), onDone()),
    onError: () => void qc.invalidateQueries({ queryKey: ['broker', brokerId, 'views'] }),
  });
  const err = edit.error instanceof ApiError ? edit.error : null;
  // Changed (409), or renamed or removed (404), since the form was filled: start again from it as it is now.
  const stale = err?.status === 409 || err?.status === 404;
  const fieldErr = (f: Field) => err?.fields?.[f];
  const general =
    edit.error && !FIELDS.some(([f]) => fieldErr(f)) ? (edit.error instanceof Error ? edit.error.message : String(edit.error)) : null;
  // Start again from the view as it is now: the form takes its values and version.
  const reload = () => {
    const now = qc.getQueryData<{ views: TeamView[] }>(['broker', brokerId, 'views'])?.views.find((v) => v.name === base.name);
    if (!now) return onDone();
    setBase(now);
    setForm({ newName: now.name, href: now.href, description: now.description });
    edit.reset();
  };
  return (
    <form
      className="flex w-full flex-col gap-1 rounded border border-zinc-200 p-2 dark:border-zinc-700"
      aria-label={`Edit team view ${view.name}`}
      data-testid="team-view-editor"
      onSubmit={(e) => {
        e.preventDefault();
        edit.mutate();
      }}
    >
      {FIELDS.map(([f, label]) => (
        <label key={f} className="flex flex-col gap-0.5">
          <span>{label}</span>
          {f === 'description' ? (
            <textarea
              className="input py-0.5 text-xs"
              rows={2}
              maxLength={MAX_VIEW_DESCRIPTION + 1}
              value={form[f]}
              onChange={(e) => setForm({ ...form, [f]: e.target.value })}
              data-testid={`team-view-edit-${f}`}
            />
          ) : (
            <input
              className="input py-0.5 text-xs"
              maxLength={f === 'newName' ? MAX_VIEW_NAME + 1 : 2001}
              value={form[f]}
              onChange={(e) => setForm({ ...form, [f]: e.target.value })}
              aria-invalid={fieldErr(f) ? true : undefined}
              data-testid={`team-view-edit-${f}`}
            />
          )}
          {fieldErr(f) ? (
            <span className="text-red-600" data-testid={`team-view-edit-error-${f}`}>
              {fieldErr(f)}
            </span>
          ) : null}
        </label>
      ))}
      {general ? (
        <span className="text-red-600" role="alert" data-testid="team-view-edit-problem">
          {general}
        </span>
      ) : null}
      <span className="flex gap-3">
        <button type="submit" className="link" disabled={edit.isPending} data-testid="team-view-edit-save">
          Save changes
        </button>
        {stale ? (
          <button type="button" className="link" onClick={reload} data-testid="team-view-edit-reload">
            Start again from the current view
          </button>
        ) : null}
        <button type="button" className="link" onClick={onDone}>
          Cancel
        </button>
      </span>
    </form>
  );
}
