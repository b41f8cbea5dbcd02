import { describe, expect, it } from 'vitest';
import { typedSnippet, typedValueJson } from './typed-entry';

const POTATOQ = '{"__potatoq__":"{kind}","v":{value}}';

describe('typed value entry', () => {
  it("writes each kind in the system's declared form", () => {
    const local = '2026-12-01T09:30:00';
    expect(typedSnippet(POTATOQ, 'datetime', local)).toEqual({
      ok: true,
      json: `{"__potatoq__":"datetime","v":"${new Date(local).toISOString().replace('Z', '+00:00')}"}`,
    });
    expect(typedSnippet(POTATOQ, 'decimal', ' 19.990 ')).toEqual({ ok: true, json: '{"__potatoq__":"decimal","v":"19.990"}' });
    expect(typedSnippet(POTATOQ, 'uuid', '1B4E28BA-2FA1-11D2-883F-0016D3CCA427')).toEqual({
      ok: true,
      json: '{"__potatoq__":"uuid","v":"1b4e28ba-2fa1-11d2-883f-0016d3cca427"}',
    });
    expect(typedSnippet(POTATOQ, 'bytes', 'héllo')).toEqual({ ok: true, json: '{"__potatoq__":"bytes","v":"aMOpbGxv"}' });
    expect(typedSnippet(POTATOQ, 'timedelta', '90')).toEqual({ ok: true, json: '{"__potatoq__":"timedelta","v":90.0}' });
    expect(typedSnippet(POTATOQ, 'set', '[1, "a"]')).toEqual({ ok: true, json: '{"__potatoq__":"set","v":[1, "a"]}' });
    expect(typedSnippet(POTATOQ, 'date', '2026-12-01')).toEqual({ ok: true, json: '{"__potatoq__":"date","v":"2026-12-01"}' });
    expect(typedSnippet(POTATOQ, 'time', '09:30')).toEqual({ ok: true, json: '{"__potatoq__":"time","v":"09:30:00"}' });
  });

  it('refuses a value that is not of its kind, saying what it wants', () => {
    expect(typedValueJson('datetime', 'tomorrow 9am')).toMatchObject({ ok: false, error: expect.stringMatching(/^not a date and time/) });
    expect(typedValueJson('decimal', '1,5')).toMatchObject({ ok: false });
    expect(typedValueJson('uuid', 'not-a-uuid')).toMatchObject({ ok: false, error: expect.stringMatching(/UUID/) });
    expect(typedValueJson('set', '[[1]]')).toMatchObject({ ok: false });
    expect(typedValueJson('timedelta', 'soon')).toMatchObject({ ok: false });
  });

  it('makes a random UUID when none is typed', () => {
    const r = typedValueJson('uuid', '');
    expect(r.ok && JSON.parse(r.json)).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('the declared template', () => {
  it('takes the value verbatim, even with replacement patterns in it', () => {
    expect(typedSnippet('{"__type__":"{kind}","__value__":{value}}', 'set', '["$&", "$1"]')).toEqual({
      ok: true,
      json: '{"__type__":"set","__value__":["$&", "$1"]}',
    });
  });
});
