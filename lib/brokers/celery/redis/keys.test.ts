import { describe, expect, it } from 'vitest';
import { bindingQueue, bucketOf, celeryRedisKeys, SEP } from './keys';
import { resultKeys } from './results';

describe("kombu's Redis layout", () => {
  it('puts a priority in the bucket kombu picks: clamped to 0-9, then the largest step not above it', () => {
    expect([-1, 0, 2, 3, 5, 6, 8, 9, 200, 'x'].map(bucketOf)).toEqual([0, 0, 0, 3, 3, 6, 6, 9, 9, 0]);
    const k = celeryRedisKeys('app:');
    expect(k.buckets('mail')).toEqual(['app:mail', `app:mail${SEP}3`, `app:mail${SEP}6`, `app:mail${SEP}9`]);
    expect(k.pidboxChannel(4)).toBe('app:/4.celery.pidbox');
    expect(bindingQueue(['mail', '', 'mail'].join(SEP))).toBe('mail');
    expect(bindingQueue('junk')).toBeNull();
  });

  it("prefixes result keys as Celery does: '_' is added unless the prefix ends in : _ - or .", () => {
    expect(resultKeys('').meta('i')).toBe('celery-task-meta-i');
    expect(resultKeys('shop').meta('i')).toBe('shop_celery-task-meta-i');
    expect(resultKeys('shop:').meta('i')).toBe('shop:celery-task-meta-i');
    expect(resultKeys('shop').idOf('shop_celery-task-meta-abc')).toBe('abc');
  });
});
