import { describe, expect, it } from 'vitest';
import { EditError, typedToPy } from './typed-edit';

const WHO = "Celery's workers";

describe('typedToPy', () => {
  it('builds the typed kinds with their constructors', () => {
    expect(typedToPy({ t: 'uuid', v: '6F9619FF-8B86-D011-B42D-00C04FC964FF' }, 'x', WHO)).toEqual({
      k: 'uuid',
      hex: '6f9619ff8b86d011b42d00c04fc964ff',
    });
    expect(
      typedToPy(
        {
          t: 'set',
          items: [
            { t: 'int', v: '2' },
            { t: 'int', v: '1' },
            { t: 'float', v: '1' },
          ],
        },
        'x',
        WHO,
      ),
    ).toEqual({
      k: 'set',
      items: [
        { k: 'int', text: '1' },
        { k: 'int', text: '2' },
      ],
    });
  });

  it("keeps a dict a dict, whatever its keys: no system's tag is read into an edited value", () => {
    const looksTagged = {
      t: 'dict',
      entries: [
        ['__potatoq__', { t: 'str', v: 'date' }],
        ['v', { t: 'str', v: '2026-01-01' }],
      ],
    } as const;
    const py = typedToPy({ t: 'dict', entries: looksTagged.entries.map(([k, v]) => [k, v]) }, 'kwargs.x', WHO);
    expect(py.k).toBe('dict');
  });

  it('names the field and the workers when the value would not arrive as the type chosen', () => {
    const err = (() => {
      try {
        typedToPy({ t: 'list', items: [{ t: 'date', v: 'tomorrow' }] }, 'args[0]', WHO);
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(EditError);
    expect((err as EditError).field).toBe('args[0][0]');
    expect((err as EditError).message).toBe(
      "args[0][0]: is not an ISO date (2026-12-01): Celery's workers would receive it as a plain dict",
    );
    expect(() => typedToPy({ t: 'int', v: '9'.repeat(4301) }, 'n', WHO)).toThrow(
      /n: Celery's workers could not read it: Exceeds the limit/,
    );
  });
});
