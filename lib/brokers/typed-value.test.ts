import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ZTypedValue, type TypedValue } from './typed-value';

// TypedValue is the one response type written by hand (a recursive type cannot be inferred from
// its schema): these hold it and ZTypedValue to each other, both ways, at type-check time.
type SameAs<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const same: SameAs<TypedValue, z.output<typeof ZTypedValue>> = true;

describe('ZTypedValue', () => {
  it('describes the same values as the TypedValue type', () => expect(same).toBe(true));

  it('reads nested values and refuses an unknown kind or a number where text is', () => {
    const v: TypedValue = {
      t: 'dict',
      entries: [['when', { t: 'datetime', v: '2026-12-01T09:00:00+00:00', aware: true, epochMs: 1 }]],
      note: { code: 'unknown-tag', label: 'plain', why: 'the system does not know this tag' },
    };
    expect(ZTypedValue.parse({ t: 'list', items: [v, { t: 'deep', depth: 9 }] })).toEqual({
      t: 'list',
      items: [v, { t: 'deep', depth: 9 }],
    });
    expect(ZTypedValue.safeParse({ t: 'complex', v: '1j' }).success).toBe(false);
    expect(ZTypedValue.safeParse({ t: 'tuple', items: [{ t: 'int', v: 1 }] }).success).toBe(false);
  });
});
