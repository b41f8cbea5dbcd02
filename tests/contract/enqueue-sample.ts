import type { EnqueueDecl, EnqueueFieldDecl, EnqueueRequest } from '@/lib/brokers/schema';

// Enqueue requests the shared battery builds from an adapter's declared fields alone, so the
// same cases run on every system without knowing its inputs.

const SAMPLE: Record<EnqueueFieldDecl['kind'], string | null> = {
  text: null,
  integer: null,
  'json-list': '[1, 2]',
  'json-object': '{"k": "v"}',
  datetime: null,
  duration: null,
};

/** A task due now: every JSON field given a small value, the rest left at their defaults. */
export function enqueueNow(decl: EnqueueDecl, task: string, queue: string): EnqueueRequest {
  const fields: Record<string, unknown> = {};
  for (const f of decl.fields) {
    const v = f.advanced ? null : SAMPLE[f.kind];
    if (v !== null) fields[f.key] = v;
  }
  return { task, queue, fields };
}

/** A task due in ten minutes, through the first declared field that schedules; null when none. */
export function enqueueLater(decl: EnqueueDecl, task: string, queue: string, now = Date.now()): EnqueueRequest | null {
  const f = decl.fields.find((x) => x.schedules && (x.kind === 'duration' || x.kind === 'datetime'));
  if (!f) return null;
  const value = f.kind === 'duration' ? '600' : new Date(now + 600_000).toISOString();
  return { task, queue, fields: { [f.key]: value } };
}

/** Values of the wrong JSON shape for each JSON field: each must be refused under its key. */
export function enqueueWrongShapes(decl: EnqueueDecl): Array<[string, unknown]> {
  return decl.fields.flatMap((f): Array<[string, unknown]> =>
    f.kind === 'json-list' ? [[f.key, '{"not": "a list"}']] : f.kind === 'json-object' ? [[f.key, '[1]']] : [],
  );
}
