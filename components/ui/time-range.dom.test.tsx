import { screen } from '@testing-library/react';
import { userEvent } from '@vitest/browser/context';
import { describe, expect, it, vi } from 'vitest';
import { renderInApp } from '@/tests/support/component';
import { TimeRangeControl } from './time-range';

const at = vi.hoisted(() => ({ path: '/brokers/b1/dead', search: 'queue=emails&since=1h&cursor=abc', pushed: [] as string[] }));
vi.mock('next/navigation', async (original) => ({
  ...(await original<typeof import('next/navigation')>()),
  usePathname: () => at.path,
  useSearchParams: () => new URLSearchParams(at.search),
  useRouter: () => ({ push: (href: string) => at.pushed.push(href) }),
}));

describe('TimeRangeControl', () => {
  it('offers presets that keep the other filters and start paging again, marking the current one', () => {
    renderInApp(<TimeRangeControl label="Died" since="1h" cap={{ on: true }} />);
    expect(screen.getByTestId('range-15m').getAttribute('href')).toBe('/brokers/b1/dead?queue=emails&since=15m');
    expect(screen.getByTestId('range-1h').getAttribute('aria-current')).toBe('true');
    expect(screen.getByTestId('range-any').getAttribute('href')).toBe('/brokers/b1/dead?queue=emails');
    expect(screen.getByTestId('range-any').getAttribute('aria-current')).toBeNull();
  });

  it('sends a custom range in the viewer’s clock as instants', async () => {
    renderInApp(<TimeRangeControl label="Died" since="1h" cap={{ on: true }} />);
    await userEvent.fill(screen.getByTestId('range-from'), '2026-12-04T10:00');
    await userEvent.click(screen.getByTestId('range-apply'));
    const sent = new URL(at.pushed.at(-1)!, 'http://x').searchParams;
    expect(sent.get('since')).toBe(new Date('2026-12-04T10:00').toISOString());
    expect(sent.get('until')).toBeNull();
    expect(sent.get('queue')).toBe('emails');
  });

  it('says a bound that names no time under the control', () => {
    renderInApp(<TimeRangeControl label="Died" since="yesterday" cap={{ on: true }} />);
    expect(screen.getByTestId('range-error').textContent).toMatch(/^since: "yesterday" is not a time: .*15m/);
  });

  it('shows the broker’s reason instead of the control where it cannot filter by time', () => {
    renderInApp(<TimeRangeControl label="Died" cap={{ on: false, why: 'RabbitMQ 3.x cannot browse its DLQs' }} />);
    expect(screen.queryByTestId('time-range')).toBeNull();
    expect(screen.getByTestId('range-unavailable').textContent).toBe('Died: no time range here: RabbitMQ 3.x cannot browse its DLQs');
  });
});
