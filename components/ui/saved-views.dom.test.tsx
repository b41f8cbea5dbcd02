import { screen, within } from '@testing-library/react';
import { userEvent } from '@vitest/browser/context';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VIEWS_KEY } from '@/lib/client/saved-views';
import { MAX_VIEW_DESCRIPTION } from '@/lib/views/schema';
import { mockApi, renderInApp } from '@/tests/support/component';
import { SavedViews } from './saved-views';

const at = vi.hoisted(() => ({ path: '/brokers/b1/dead', search: 'queue=emails&task=shop.send' }));
vi.mock('next/navigation', async (original) => ({
  ...(await original<typeof import('next/navigation')>()),
  usePathname: () => at.path,
  useSearchParams: () => new URLSearchParams(at.search),
}));

afterEach(() => window.localStorage.clear());

describe('SavedViews', () => {
  it('saves the filtered URL under a name, lists it for this list only, and forgets it', async () => {
    window.localStorage.setItem(VIEWS_KEY, JSON.stringify([{ name: 'other list', href: '/brokers/b1/queues/x?state=ready', at: 1 }]));
    renderInApp(<SavedViews />);
    expect(screen.getByTestId('saved-views').textContent).toContain('none saved for this list');

    await userEvent.click(screen.getByTestId('saved-view-new'));
    await userEvent.click(screen.getByTestId('saved-view-save'));
    expect(screen.getByTestId('saved-view-problem').textContent).toBe('give the view a name');
    await userEvent.fill(screen.getByRole('textbox', { name: 'Name of the view' }), 'Emails sends');
    await userEvent.click(screen.getByTestId('saved-view-save'));

    const link = await screen.findByTestId('saved-view-link');
    expect(link.textContent).toBe('Emails sends');
    expect(link.getAttribute('href')).toBe('/brokers/b1/dead?queue=emails&task=shop.send');
    const stored = JSON.parse(window.localStorage.getItem(VIEWS_KEY)!) as Array<{ name: string }>;
    expect(stored.map((v) => v.name)).toEqual(['Emails sends', 'other list']);

    await userEvent.click(within(screen.getByTestId('saved-view')).getByRole('button', { name: 'Forget view Emails sends' }));
    expect(screen.queryByTestId('saved-view')).toBeNull();
    expect((JSON.parse(window.localStorage.getItem(VIEWS_KEY)!) as unknown[]).length).toBe(1);
  });

  it('keeps an optional description with the view, says it when the view is open, and bounds it', async () => {
    mockApi({ '/api/brokers/b1/views': { views: [] } });
    renderInApp(<SavedViews />);
    await userEvent.click(screen.getByTestId('saved-view-new'));
    await userEvent.fill(screen.getByRole('textbox', { name: 'Name of the view' }), 'Sends');
    const about = screen.getByRole('textbox', { name: 'What the view is for (optional)' });
    await userEvent.fill(about, 'x'.repeat(MAX_VIEW_DESCRIPTION + 1));
    await userEvent.click(screen.getByTestId('saved-view-save'));
    expect(screen.getByTestId('saved-view-problem').textContent).toBe(`description: at most ${MAX_VIEW_DESCRIPTION} characters`);
    expect(window.localStorage.getItem(VIEWS_KEY)).toBeNull();
    await userEvent.fill(about, '  <b>mail</b> sends that bounce  ');
    await userEvent.click(screen.getByTestId('saved-view-save'));
    // This page is the view just saved: its words are said, as text.
    const open = await screen.findByTestId('saved-view-open');
    expect(open.textContent).toBe('Showing your view Sends: <b>mail</b> sends that bounce');
    expect(open.querySelector('b')).toBeNull();
    expect(screen.getByTestId('saved-view-link').getAttribute('title')).toBe('<b>mail</b> sends that bounce');
    const [stored] = JSON.parse(window.localStorage.getItem(VIEWS_KEY)!) as Array<{ description?: string }>;
    expect(stored?.description).toBe('<b>mail</b> sends that bounce');
  });

  it('sends the description with a team view and names the team view open on this page', async () => {
    const team = { name: 'Team sends', href: `${at.path}?${at.search}`, description: 'bounced mail', createdAt: '', createdBy: 'ann' };
    const api = mockApi({ '/api/brokers/b1/views': { views: [{ ...team, version: 1, updatedAt: null, updatedBy: null }] } });
    renderInApp(<SavedViews />);
    expect((await screen.findByTestId('saved-view-open')).textContent).toBe('Showing team view Team sends: bounced mail');
    await userEvent.click(screen.getByTestId('saved-view-new'));
    await userEvent.fill(screen.getByRole('textbox', { name: 'Name of the view' }), 'Other');
    await userEvent.fill(screen.getByRole('textbox', { name: 'What the view is for (optional)' }), 'for the night shift');
    await userEvent.selectOptions(screen.getByTestId('saved-view-scope'), 'team');
    await userEvent.click(screen.getByTestId('saved-view-save'));
    const calls = api.mock.calls as unknown as Array<[unknown, RequestInit | undefined]>;
    const posted = () => calls.filter(([, init]) => init?.method === 'POST').map(([, init]) => JSON.parse(String(init?.body)) as object);
    await vi.waitFor(() =>
      expect(posted()).toEqual([{ name: 'Other', href: team.href, description: 'for the night shift', replace: false }]),
    );
  });
});
