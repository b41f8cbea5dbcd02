import { describe, expect, it } from 'vitest';
import { POTATOQ_TABLE_MODEL } from '@/lib/brokers/potatoq/model';
import { fillCommand, shellQuote } from './cli';

// The commands potatoq's adapters declare for replay and purge.
const cliDeadRetry = (ids: string[]) => fillCommand(POTATOQ_TABLE_MODEL.actions.replay.cli, { ids });
const cliPurge = (queue: string) => fillCommand(POTATOQ_TABLE_MODEL.actions.purge.cli, { queue });

describe('shellQuote', () => {
  it('leaves safe words bare', () => {
    expect(shellQuote('default')).toBe('default');
    expect(shellQuote('app.tasks.add')).toBe('app.tasks.add');
  });
  it('single-quotes text with spaces, dollars and quotes so nothing expands', () => {
    expect(shellQuote('a b')).toBe("'a b'");
    expect(shellQuote('$(rm -rf /)')).toBe("'$(rm -rf /)'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    expect(shellQuote('')).toBe("''");
  });
});

describe('cli commands', () => {
  it('quotes ids and queue names', () => {
    expect(cliDeadRetry(['a1', "x'y"])).toBe("potatoq dead retry a1 'x'\\''y'");
    expect(cliPurge('my queue')).toBe("potatoq purge -Q 'my queue' -f");
  });
  it('shows no command where the adapter declares none', () => {
    expect(fillCommand(undefined, { ids: ['a'] })).toBeNull();
  });
});
