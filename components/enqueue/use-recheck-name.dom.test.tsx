import { render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { NAMES_RECHECK_MS, useRecheckUnknownName } from './use-recheck-name';

function Probe(p: { task: string; known?: string[]; refetch: () => unknown }) {
  useRecheckUnknownName(p.task, p.known, p.refetch);
  return null;
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('useRecheckUnknownName', () => {
  it('reads the names again once a typed name the list lacks has stood for a moment', async () => {
    const refetch = vi.fn();
    const r = render(<Probe task="shop.new" known={['shop.old']} refetch={refetch} />);
    await wait(NAMES_RECHECK_MS / 2);
    expect(refetch).not.toHaveBeenCalled();
    await wait(NAMES_RECHECK_MS / 2 + 300);
    expect(refetch).toHaveBeenCalledTimes(1);
    // The same name, still unknown after the new read: not read again and again.
    r.rerender(<Probe task="shop.new" known={['shop.old']} refetch={refetch} />);
    await wait(NAMES_RECHECK_MS + 300);
    expect(refetch).toHaveBeenCalledTimes(1);
  });

  it('leaves a known name, an empty field and names still loading alone; typing on restarts the wait', async () => {
    const refetch = vi.fn();
    const r = render(<Probe task="shop.old" known={['shop.old']} refetch={refetch} />);
    r.rerender(<Probe task="  " known={['shop.old']} refetch={refetch} />);
    r.rerender(<Probe task="shop.ne" refetch={refetch} />);
    await wait(NAMES_RECHECK_MS / 2);
    r.rerender(<Probe task="shop.new" known={['shop.old']} refetch={refetch} />);
    await wait(NAMES_RECHECK_MS / 2 + 300);
    expect(refetch).not.toHaveBeenCalled();
    await wait(NAMES_RECHECK_MS / 2);
    expect(refetch).toHaveBeenCalledTimes(1);
  });
});
