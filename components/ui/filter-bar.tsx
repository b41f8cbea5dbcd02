'use client';
import Form from 'next/form';
import { SavedViews } from './saved-views';

export interface FilterField {
  name: string;
  label: string;
  value?: string;
  placeholder?: string;
}

/**
 * Filters live in the URL (a GET form), so a filtered view can be shared and reloaded.
 * `keep` carries parameters that are not edited here (state tab, group).
 * The form is keyed by the values it was rendered for: after browser Back/Forward the page's
 * filter changes without a remount, and uncontrolled boxes would keep showing the old text
 * while the list and the "all matching" actions use the URL's filter.
 */
export function FilterBar({
  action,
  fields,
  keep = {},
}: {
  action: string;
  fields: FilterField[];
  keep?: Record<string, string | undefined>;
}) {
  return (
    <>
      <Form
        key={JSON.stringify([fields.map((f) => f.value ?? ''), keep])}
        action={action}
        className="flex flex-wrap items-end gap-2"
        data-testid="filter-bar"
      >
        {Object.entries(keep).map(([k, v]) => (v ? <input key={k} type="hidden" name={k} value={v} /> : null))}
        {fields.map((f, i) => (
          <label key={f.name} className="grid gap-0.5 text-xs text-zinc-500 dark:text-zinc-400">
            {f.label}
            <input
              name={f.name}
              defaultValue={f.value ?? ''}
              placeholder={f.placeholder}
              className="input w-48"
              data-testid={`filter-${f.name}`}
              data-shortcut={i === fields.length - 1 ? 'search' : undefined}
              aria-label={f.label}
            />
          </label>
        ))}
        <button
          type="submit"
          className="rounded-md bg-zinc-800 px-3 py-1.5 text-sm font-medium text-white dark:bg-zinc-200 dark:text-zinc-900"
          data-testid="filter-apply"
        >
          Filter
        </button>
        <a
          href={
            action +
            (Object.values(keep).some(Boolean)
              ? `?${new URLSearchParams(Object.entries(keep).filter((e): e is [string, string] => !!e[1])).toString()}`
              : '')
          }
          className="link text-sm"
          data-testid="filter-clear"
        >
          Clear
        </a>
      </Form>
      <SavedViews />
    </>
  );
}
