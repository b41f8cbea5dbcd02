import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, renderInApp } from '@/tests/support/component';
import type { AlertsAnswer } from './alerts-types';
import { AlertsView } from './alerts-view';

const answer = (canEdit: boolean): AlertsAnswer => ({
  canEdit,
  brokers: ['main'],
  targets: [
    {
      id: 'from-file',
      origin: 'config',
      problem: null,
      updatedAt: null,
      updatedBy: null,
      target: { id: 'from-file', broker: 'main', kind: 'stuck', for: '5m', severity: 'warning' },
      reading: { value: 1, breached: true, unknown: null },
    },
    {
      id: 'edited',
      origin: 'console',
      problem: 'the config file has a target "edited" too: that one is watched, remove this one or rename it',
      updatedAt: '2026-01-01T00:00:00Z',
      updatedBy: 'olga',
      target: { id: 'edited', broker: 'main', queue: 'mail', kind: 'deadPerMinute', threshold: 2, for: '1m', severity: 'critical' },
      reading: null,
    },
  ],
  webhook: {
    configured: true,
    origin: 'console',
    secretSet: true,
    minIntervalSeconds: 300,
    sendResolved: true,
    updatedAt: null,
    updatedBy: 'olga',
  },
});

describe('AlertsView', () => {
  it('shows a viewer every target and where it comes from, with nothing to change', async () => {
    mockApi({ '/api/alerts/targets': answer(false) });
    renderInApp(<AlertsView />);
    expect((await screen.findByTestId('alert-origin-from-file')).textContent).toBe('from the config file (read-only)');
    expect(screen.getByTestId('alert-row-from-file').textContent).toContain('1 · crossed');
    expect(screen.getByTestId('alert-row-edited').textContent).toContain('not watched: the config file has a target "edited" too');
    expect(screen.getByTestId('alert-webhook-status').textContent).toContain('set in the console, with a signing secret');
    for (const id of ['alert-add', 'alert-edit-edited', 'alert-remove-edited', 'alert-webhook-form'])
      expect(screen.queryByTestId(id)).toBeNull();
  });

  it('offers an operator edits of console targets only', async () => {
    mockApi({ '/api/alerts/targets': answer(true) });
    renderInApp(<AlertsView />);
    expect(await screen.findByTestId('alert-remove-edited')).toBeTruthy();
    expect(screen.queryByTestId('alert-remove-from-file')).toBeNull();
    expect(screen.getByTestId('alert-webhook-form')).toBeTruthy();
  });
});
