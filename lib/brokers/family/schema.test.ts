import { describe, expect, it } from 'vitest';
import { ZDeleteFamilyRequest, ZFamilyQuery } from './schema';

describe('family inputs', () => {
  it('takes a subtree delete only with the id typed again', () => {
    expect(ZDeleteFamilyRequest.safeParse({ id: 'a1', confirm: 'a1' }).success).toBe(true);
    const r = ZDeleteFamilyRequest.safeParse({ id: 'a1', confirm: 'a2' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['confirm']);
    expect(ZDeleteFamilyRequest.safeParse({ id: 'a1' }).success).toBe(false);
  });

  it('bounds the limit: 1 to 500, 200 by default', () => {
    expect(ZFamilyQuery.parse({}).limit).toBe(200);
    expect(ZFamilyQuery.parse({ limit: '50' }).limit).toBe(50);
    expect(ZFamilyQuery.safeParse({ limit: '5000' }).success).toBe(false);
    expect(ZFamilyQuery.safeParse({ limit: '0' }).success).toBe(false);
  });
});
