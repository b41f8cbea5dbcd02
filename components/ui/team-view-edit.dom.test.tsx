import { screen } from '@testing-library/react';
import { userEvent } from '@vitest/browser/context';
import { describe, expect, it } from 'vitest';
import type { TeamView } from '@/lib/views/schema';
import { mockApi, renderInApp } from '@/tests/support/component';
import { TeamViewList } from './team-views';

const view: TeamView = {
  name: 'Mail',
  href: '/brokers/b1/dead?queue=mail',
  description: 'the mail queue',
  createdAt: '2026-12-04T10:00:00.000Z',
  createdBy: 'olga',
  version: 4,
  updatedAt: null,
  updatedBy: null,
};

describe('TeamViewEditor', () => {
  it('sends the version it read, shows each refusal under its field, and keeps what was typed on a conflict', async () => {
    const sent: unknown[] = [];
    const answers = [
      { status: 400, error: { code: 'InvalidInput', message: 'href: bad', fields: { href: 'must be a path of this console' } } },
      { status: 409, error: { code: 'Conflict', message: 'the view "Mail" was changed by piotr after you opened it; nothing was saved' } },
    ];
    const fetchMock = mockApi({ '/api/brokers/b1/views': { views: [view] }, '/api/brokers/b1/views/edit': () => answers.shift() });
    renderInApp(<TeamViewList brokerId="b1" pathname="/brokers/b1/dead" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Edit team view Mail' }));
    expect((screen.getByTestId('team-view-edit-description') as HTMLTextAreaElement).value).toBe('the mail queue');

    await userEvent.fill(screen.getByTestId('team-view-edit-href'), 'https://example.com/x');
    await userEvent.click(screen.getByTestId('team-view-edit-save'));
    expect((await screen.findByTestId('team-view-edit-error-href')).textContent).toBe('must be a path of this console');

    await userEvent.fill(screen.getByTestId('team-view-edit-href'), '/brokers/b1/dead?queue=mail-eu');
    await userEvent.fill(screen.getByTestId('team-view-edit-description'), 'EU mail');
    await userEvent.click(screen.getByTestId('team-view-edit-save'));
    expect((await screen.findByTestId('team-view-edit-problem')).textContent).toMatch(/changed by piotr after you opened it/);
    expect((screen.getByTestId('team-view-edit-description') as HTMLTextAreaElement).value).toBe('EU mail');
    expect(screen.queryByTestId('team-view-edit-error-href')).toBeNull();

    for (const [url, init] of fetchMock.mock.calls as unknown as Array<[string, RequestInit | undefined]>)
      if (String(url).endsWith('/views/edit')) sent.push(JSON.parse(String(init?.body)));
    expect(sent[1]).toEqual({ name: 'Mail', version: 4, newName: 'Mail', href: '/brokers/b1/dead?queue=mail-eu', description: 'EU mail' });
    expect(screen.getByTestId('team-view-edit-reload')).toBeTruthy();
  });
});
