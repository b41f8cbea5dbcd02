import { describe, expect, it } from 'vitest';
import { parseJson } from '@/lib/pyvalues/json';
import { decodeKombu, dumpsKombu, loadsKombu } from './kombu-json';

// Expected texts are what kombu 5.7's `dumps` writes for the same Python values (checked in
// the int suite against a real send_task, which also covers the envelope).
describe("kombu's JSON", () => {
  it('decodes the markers kombu writes for datetime, date, time, Decimal, UUID and bytes', () => {
    const d = loadsKombu(
      '[{"__type__": "datetime", "__value__": "2026-01-02T03:04:05.000006+00:00"}, {"__type__": "date", "__value__": "2026-02-03"},' +
        ' {"__type__": "time", "__value__": "04:05:06"}, {"__type__": "decimal", "__value__": "1.50"},' +
        ' {"__type__": "uuid", "__value__": {"hex": "12345678123456781234567812345678"}}, {"__type__": "bytes", "__value__": "hi"},' +
        ' {"__type__": "base64", "__value__": "/wA="}]',
    );
    expect(d.crash).toBeNull();
    expect(d.value.k === 'list' && d.value.items.map((x) => x.k)).toEqual([
      'datetime',
      'date',
      'time',
      'decimal',
      'uuid',
      'bytes',
      'bytes',
    ]);
  });

  it('says a worker cannot decode a message with an unknown marker or a bad value', () => {
    expect(loadsKombu('{"__type__": "frobnicate", "__value__": 1}').crash).toMatch(/Unsupported type.*frobnicate/);
    expect(loadsKombu('{"__type__": "decimal", "__value__": "not a number"}').crash).toMatch(/decimal/);
    // A dict with more keys is plain data for kombu.
    expect(loadsKombu('{"__type__": "decimal", "__value__": "1", "x": 2}').crash).toBeNull();
  });

  it('encodes like Python json.dumps: ", " and ": " separators, ASCII escapes, float repr', () => {
    const v = decodeKombu(parseJson('{"s": "é\\n\\"😀", "n": [1, 2.5, 1e100, -0.0], "b": true, "z": null}')).value;
    expect(dumpsKombu(v)).toBe('{"s": "\\u00e9\\n\\"\\ud83d\\ude00", "n": [1, 2.5, 1e+100, -0.0], "b": true, "z": null}');
  });

  it('re-encodes typed values with their markers, bytes as UTF-8 text or base64', () => {
    const text =
      '[{"__type__": "datetime", "__value__": "2026-01-02T03:04:05+00:00"}, {"__type__": "uuid", "__value__": {"hex": "12345678123456781234567812345678"}}, {"__type__": "bytes", "__value__": "hi"}, {"__type__": "base64", "__value__": "/wA="}]';
    expect(dumpsKombu(loadsKombu(text).value)).toBe(text);
  });

  it('refuses what kombu cannot serialize', () => {
    expect(() => dumpsKombu({ k: 'set', items: [] })).toThrow(/not JSON serializable/);
  });
});
