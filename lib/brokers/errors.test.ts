import { describe, expect, it } from 'vitest';
import { ConsoleError, isConsoleError } from './errors';

describe('ConsoleError', () => {
  it('is recognised when thrown by another copy of the module (another Next layer)', async () => {
    const url = new URL('./errors.ts', import.meta.url).href;
    const other = (await import(/* @vite-ignore */ `${url}?copy=1`)) as typeof import('./errors');
    expect(other.ConsoleError).not.toBe(ConsoleError);
    const e = new other.ConsoleError('InvalidInput', 'kwargs.at: bad', { 'kwargs.at': 'bad' });
    expect(e instanceof ConsoleError).toBe(true);
    expect(isConsoleError(e)).toBe(true);
  });

  it('does not take a plain Error or a look-alike object for one', () => {
    expect(isConsoleError(new Error('x'))).toBe(false);
    expect(isConsoleError({ code: 'InvalidInput', message: 'x', status: 400 })).toBe(false);
    expect(isConsoleError(null)).toBe(false);
  });

  it('keeps its code, status, fields and JSON', () => {
    const e = new ConsoleError('NotFound', 'no such task');
    expect([e.code, e.status, e.name, e.message]).toEqual(['NotFound', 404, 'NotFound', 'no such task']);
    expect(e).toBeInstanceOf(Error);
    expect(JSON.stringify(e)).toBe('{"error":{"code":"NotFound","message":"no such task"}}');
  });
});
