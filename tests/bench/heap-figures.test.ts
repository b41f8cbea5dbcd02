import { describe, expect, it } from 'vitest';
import { heapTotals, stringsStartingWith } from '@/bench/heap-figures';

const meta = { node_fields: ['type', 'name', 'id', 'self_size', 'edge_count'], node_types: [['hidden', 'object', 'string', 'closure']] };

describe('heapTotals', () => {
  it('sums self size and count per constructor, and per (type) for strings', () => {
    const h = {
      snapshot: { meta },
      strings: ['Map', 'hello', 'run', 'Map'],
      nodes: [1, 0, 1, 40, 0, 1, 3, 2, 24, 0, 2, 1, 3, 100, 0, 3, 2, 4, 32, 0],
    };
    const t = heapTotals(h);
    expect(t.get('Map')).toEqual({ size: 64, count: 2 });
    expect(t.get('(string)')).toEqual({ size: 100, count: 1 });
    expect(t.get('run')).toEqual({ size: 32, count: 1 });
  });

  it('refuses a file that is not a heap snapshot', () => {
    expect(() => heapTotals({ snapshot: { meta: { node_fields: ['id'], node_types: [[]] } }, nodes: [], strings: [] })).toThrow(/not a V8/);
  });

  it('counts the strings that start with a prefix, with their size', () => {
    const h = {
      snapshot: { meta },
      strings: ['Traceback (a)', 'Traceback (b)', 'other'],
      nodes: [2, 0, 1, 40, 0, 2, 1, 2, 24, 0, 2, 2, 3, 8, 0, 1, 0, 4, 99, 0],
    };
    expect(stringsStartingWith(h, 'Traceback')).toEqual({ count: 2, bytes: 64 });
  });
});
