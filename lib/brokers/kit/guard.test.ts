import { describe, expect, it } from 'vitest';
import { ConsoleError, isConsoleError } from '@/lib/brokers/errors';
import { guarded } from './guard';

// What an adapter's mapError does: pass ours through, say "maybe applied" only for a write.
const mapError = (e: unknown, write: boolean) =>
  isConsoleError(e) ? e : new ConsoleError(write ? 'BrokerTimeout' : 'BrokerUnavailable', `store failed: ${(e as Error).message}`);

describe('guarded', () => {
  it('answers what the call returns, synchronous or not', async () => {
    const g = guarded(mapError);
    await expect(g.read(() => 1)).resolves.toBe(1);
    await expect(g.act(async () => 2)).resolves.toBe(2);
  });

  it('maps a read failure as a read and a write failure as a write', async () => {
    const g = guarded(mapError);
    await expect(g.read(() => Promise.reject(new Error('reset')))).rejects.toMatchObject({ code: 'BrokerUnavailable' });
    await expect(
      g.act(() => {
        throw new Error('timeout');
      }),
    ).rejects.toMatchObject({ code: 'BrokerTimeout', message: 'store failed: timeout' });
  });

  it('runs a synchronous call at once when there is nothing to wait for', () => {
    const g = guarded(mapError);
    let ran = false;
    void g.read(() => (ran = true));
    expect(ran).toBe(true);
  });

  it('runs `ready` before every call, and its refusal stops the call', async () => {
    let calls = 0;
    const refused = guarded(mapError, { ready: () => Promise.reject(new ConsoleError('Unsupported', 'Redis Cluster')) });
    await expect(refused.read(() => ++calls)).rejects.toMatchObject({ code: 'Unsupported', message: 'Redis Cluster' });
    expect(calls).toBe(0);
  });

  it('shows every mapped failure to `failed`, and only failures', async () => {
    const seen: unknown[] = [];
    const g = guarded(mapError, { failed: (m) => seen.push(m) });
    await g.read(() => 'fine');
    await g.act(() => Promise.reject(new Error('gone'))).catch(() => undefined);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ code: 'BrokerTimeout' });
  });

  it("describes a failure in the adapter's words, as a write", () => {
    expect(guarded(mapError).describe(new Error('lock'))).toBe('store failed: lock');
    expect(guarded((e) => e).describe('not an Error')).toBe('not an Error');
  });
});
