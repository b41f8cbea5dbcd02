import { describe, expect, it } from 'vitest';
import { preview } from './mappers';

describe('list previews', () => {
  it('labels a payload too big to decode in a list as large, not foreign', () => {
    // A 1 MB potatoq message is valid; the list only skips decoding it.
    expect(preview(null, 1_048_700)).toEqual({ kind: 'large', text: '(1.0 MB payload, too large to preview; open it to see it)' });
  });

  it('flags a Celery body as foreign with its kind', () => {
    const p = preview('[[1],{},{"callbacks":null}]', 27);
    expect(p.kind).toBe('foreign');
    expect(p.foreign).toBe('celery-v2');
  });
});
