import { describe, expect, it } from 'vitest';
import { decodeCeleryMessage, decodePayload } from './index';
import { messageView, previewOf } from './view';

describe("potatoq's codec mapped to the neutral message view", () => {
  it('gives a potatoq message its task, id, queue, typed arguments and fields, and flags tag anomalies once', () => {
    const v = messageView(
      decodePayload(
        '{"task":"t.a","args":[{"__potatoq__":"wat","v":1},{"__potatoq__":"uuid","v":"12345678-1234-5678-1234-567812345678"}],"kwargs":{},"id":"i-1","queue":"q","x":1,"v":1}',
      ),
    );
    expect(v).toMatchObject({ format: 'potatoq', task: 't.a', id: 'i-1', queue: 'q', foreign: null });
    expect(v.args).toMatchObject({ t: 'list', items: [{ t: 'dict', note: { code: 'unknown-tag', label: 'unknown tag' } }, { t: 'uuid' }] });
    expect(v.flags.map((f) => f.code)).toEqual(['unknown-tag']);
    expect(v.fields.find((f) => f.name === 'x')).toMatchObject({ ignored: expect.stringContaining('drops') });
    expect(v.fields.find((f) => f.name === 'args')?.carriesArgs).toBe(true);
  });

  it("shows a Celery body as foreign, with Celery's headers and its arguments marked as such", () => {
    const raw = '[[2,3],{"z":1},{"callbacks":null,"errbacks":null,"chain":null,"chord":null}]';
    const decoded = decodePayload(raw);
    if (decoded.kind !== 'foreign') throw new Error('a Celery body is foreign to potatoq');
    const v = messageView({ ...decoded, celery: decodeCeleryMessage({ task: 'proj.add', id: 'c-1', argsrepr: '(2, 3)' }, raw) });
    expect(v.foreign).toMatchObject({
      code: 'celery-v2',
      title: 'Not a potatoq message: Celery protocol 2 message',
      reasonBy: 'potatoq',
      crashesWorkers: true,
    });
    expect(v).toMatchObject({ format: 'celery', task: 'proj.add', id: 'c-1', headersTitle: 'Celery headers (read-only)' });
    expect(v.args).toEqual({
      t: 'list',
      items: [
        { t: 'int', v: '2' },
        { t: 'int', v: '3' },
      ],
    });
    expect(v.headers.filter((h) => h.carriesArgs).map((h) => h.name)).toEqual(['argsrepr', 'args', 'kwargs']);
    expect(previewOf(decodePayload(raw), 80)).toMatchObject({ kind: 'foreign', foreign: 'celery-v2' });
  });
});
