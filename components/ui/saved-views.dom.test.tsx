import { screen, within } from '@testing-library/react';
import { userEvent } from '@vitest/browser/context';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VIEWS_KEY } from '@/lib/client/saved-views';
import { renderInApp } from '@/tests/support/component';
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
});
