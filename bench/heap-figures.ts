// Totals of a V8 heap snapshot (the `.heapsnapshot` JSON Node writes) per kind of object: a pure
// function, unit-tested in tests/bench/heap-figures.test.ts; used by bench/heap-diff.ts.

export interface HeapSnapshot {
  snapshot: { meta: { node_fields: string[]; node_types: unknown[] } };
  nodes: number[];
  strings: string[];
}

/** Self size and count per constructor (objects, closures, native) or per `(type)` for the rest. */
export function heapTotals(h: HeapSnapshot): Map<string, { size: number; count: number }> {
  const fields = h.snapshot.meta.node_fields;
  const types = h.snapshot.meta.node_types[0] as string[];
  const width = fields.length;
  const [ti, ni, si] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  if (ti! < 0 || ni! < 0 || si! < 0) throw new Error('not a V8 heap snapshot: node_fields lacks type, name or self_size');
  const named = new Set(['object', 'closure', 'native', 'regexp']);
  const out = new Map<string, { size: number; count: number }>();
  for (let i = 0; i + width <= h.nodes.length; i += width) {
    const type = types[h.nodes[i + ti!]!] ?? '?';
    const key = named.has(type) ? `${h.strings[h.nodes[i + ni!]!] ?? '?'}` : `(${type})`;
    const row = out.get(key) ?? { size: 0, count: 0 };
    row.size += h.nodes[i + si!]!;
    row.count += 1;
    out.set(key, row);
  }
  return out;
}

/** How many strings start with `prefix`, and their self size in bytes (e.g. tracebacks kept alive). */
export function stringsStartingWith(h: HeapSnapshot, prefix: string): { count: number; bytes: number } {
  const fields = h.snapshot.meta.node_fields;
  const types = h.snapshot.meta.node_types[0] as string[];
  const [ti, ni, si] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [number, number, number];
  let count = 0;
  let bytes = 0;
  for (let i = 0; i + fields.length <= h.nodes.length; i += fields.length) {
    if (types[h.nodes[i + ti]!] !== 'string' || !h.strings[h.nodes[i + ni]!]?.startsWith(prefix)) continue;
    count += 1;
    bytes += h.nodes[i + si]!;
  }
  return { count, bytes };
}
