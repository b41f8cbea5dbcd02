import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { asksForPage, pageQueues, ZQueuePageQuery } from '@/lib/brokers/queue-page';
import { mockApi, renderInApp } from '@/tests/support/component';
import { overview } from '@/tests/support/component-fixtures';
import { PagedQueueTable } from './paged-queue-table';

const many = (n: number) =>
  overview('b', {
    queues: Array.from({ length: n }, (_, i) => ({ name: `tenant-${String(i).padStart(4, '0')}`, ready: i, scheduled: 0 })),
  });
const rows = () => screen.getAllByTestId('queue-row').map((r) => r.dataset.queue);

/** The route as the server answers it: the whole overview, or one page cut by the real pageQueues. */
function serve(o: ReturnType<typeof many>) {
  return mockApi({
    '/api/brokers/b/queues': (url: URL) =>
      asksForPage(url.searchParams) ? pageQueues(o, ZQueuePageQuery.parse(Object.fromEntries(url.searchParams))) : o,
  });
}

describe('PagedQueueTable', () => {
  it('is the plain table up to one page of queues, asking nothing more', () => {
    const fetch = serve(many(50));
    renderInApp(<PagedQueueTable overview={many(50)} />);
    expect(rows()).toHaveLength(50);
    expect(screen.queryByTestId('queue-search')).toBeNull();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('past one page, shows the pages the server cuts and searches names there', async () => {
    const o = many(5000);
    const fetch = serve(o);
    renderInApp(<PagedQueueTable overview={o} />);
    await waitFor(() => expect(rows()).toHaveLength(50));
    expect(rows()[0]).toBe('tenant-0000');
    expect(screen.getByTestId('queue-page-info').textContent).toBe('1–50 of 5,000 queues');
    fireEvent.click(screen.getByTestId('queue-next'));
    await waitFor(() => expect(rows()[0]).toBe('tenant-0050'));
    fireEvent.change(screen.getByTestId('queue-search'), { target: { value: 'tenant-42' } });
    await waitFor(() => expect(screen.getByTestId('queue-page-info').textContent).toBe('1–50 of 100 matching of 5,000 queues'));
    expect(rows().every((q) => q?.startsWith('tenant-42'))).toBe(true);
    // The browser asked for pages, never for every queue.
    const urls = fetch.mock.calls.map(([u]) => String(u));
    expect(urls.every((u) => u.includes('limit=50'))).toBe(true);
    expect(urls.some((u) => u.includes('search=tenant-42') && u.includes('offset=0'))).toBe(true);
    fireEvent.change(screen.getByTestId('queue-search'), { target: { value: 'nobody' } });
    await waitFor(() => expect(screen.getByTestId('queue-page-info').textContent).toBe('No queue name holds “nobody” (5,000 queues)'));
    expect(screen.queryAllByTestId('queue-row')).toHaveLength(0);
  });
});
