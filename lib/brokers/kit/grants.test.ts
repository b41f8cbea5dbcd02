import { describe, expect, it } from 'vitest';
import { grantChecks, neededPairs, type GrantNeeds } from './grants';

const NEEDS: GrantNeeds = {
  required: [['jobs', 'SELECT']],
  uses: {
    browseDead: [['dead', 'SELECT']],
    replay: [
      ['dead', 'DELETE'],
      ['jobs', 'INSERT'],
    ],
    enqueue: [['jobs', 'INSERT']],
  },
};

describe('grantChecks', () => {
  it('lists each needed pair once, in the order first named', () => {
    expect(neededPairs(NEEDS)).toEqual([
      ['jobs', 'SELECT'],
      ['dead', 'SELECT'],
      ['dead', 'DELETE'],
      ['jobs', 'INSERT'],
    ]);
  });

  it('names the missing privileges of each table and every capability they switch off', () => {
    const rows = grantChecks('PostgreSQL', 'role "ro"', NEEDS, (_t, p) => p === 'SELECT');
    expect(rows).toEqual([
      {
        check: 'PostgreSQL privileges on jobs',
        ok: false,
        detail: 'role "ro" lacks INSERT (has SELECT)',
        switchesOff: ['replay', 'enqueue'],
      },
      { check: 'PostgreSQL privileges on dead', ok: false, detail: 'role "ro" lacks DELETE (has SELECT)', switchesOff: ['replay'] },
    ]);
  });

  it('is fatal when a required privilege is missing, and unknown (not a pass) where it cannot be told', () => {
    const rows = grantChecks('MySQL', 'user x', NEEDS, (t, p) => (t === 'dead' ? null : p !== 'SELECT'));
    expect(rows[0]).toMatchObject({ ok: false, fatal: true, detail: expect.stringContaining('cannot read this system') });
    expect(rows[1]).toMatchObject({ ok: null, detail: 'could not tell SELECT, DELETE (is the table there?)' });
  });

  it('passes a table whose every needed privilege is granted', () => {
    expect(grantChecks('PostgreSQL', 'role "rw"', NEEDS, () => true).map((r) => r.ok)).toEqual([true, true]);
  });
});
