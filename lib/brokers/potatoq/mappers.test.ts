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

  it('gives the same preview for a payload seen again, whatever a caller did to the first one', () => {
    const msg = (i: number) => `{"task":"t.add","args":[${i},2],"id":"x-${i}","queue":"q","v":1}`;
    const first = preview(msg(1), 60);
    const text = first.text;
    first.text = 'changed by a caller';
    expect(preview(msg(1), 60)).toEqual({ ...first, text });
    // Past the memo's size the oldest entries go; previews stay exact.
    for (let i = 2; i < 2600; i++) preview(msg(i), 60);
    expect(preview(msg(1), 60).text).toBe(text);
    expect(preview(msg(2599), 60).text).toContain('2599');
  });
});
