const FIELDS: Array<[string, string]> = [
  ['broker', 'Broker'],
  ['action', 'Action'],
  ['who', 'User'],
  ['queue', 'Queue'],
  ['task', 'Task id'],
];

/** A plain GET form: filters live in the URL, so every view of the trail can be linked. */
export function AuditFilters({ values }: { values: Record<string, string> }) {
  return (
    <form method="get" action="/audit" className="mb-4 flex flex-wrap items-end gap-2 text-sm" data-testid="audit-filters">
      {FIELDS.map(([name, label]) => (
        <label key={name} className="grid gap-1">
          <span className="text-xs text-zinc-500 dark:text-zinc-400">{label}</span>
          <input className="input py-1" name={name} defaultValue={values[name] ?? ''} data-testid={`audit-filter-${name}`} />
        </label>
      ))}
      <label className="grid gap-1">
        <span className="text-xs text-zinc-500 dark:text-zinc-400">Outcome</span>
        <select className="input py-1" name="outcome" defaultValue={values.outcome ?? ''} data-testid="audit-filter-outcome">
          <option value="">any</option>
          {['done', 'partial', 'failed', 'refused', 'pending'].map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="rounded-md bg-sky-700 px-3 py-1.5 font-medium text-white hover:bg-sky-800" data-testid="audit-apply">
        Filter
      </button>
    </form>
  );
}
