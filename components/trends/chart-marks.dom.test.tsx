import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ChartMarks } from './chart-marks';

describe('ChartMarks', () => {
  it('lists each marked campaign as a link to its page, in words', () => {
    render(
      <ChartMarks
        marks={[
          { at: '2026-12-04T14:01:30.000Z', label: 'replay of 7', href: '/campaigns/cmp-1' },
          { at: '2026-12-04T14:09:00.000Z', label: 'move of 1,200', href: '/campaigns/cmp-2' },
        ]}
      />,
    );
    const links = screen.getAllByRole('link');
    expect(links.map((l) => l.getAttribute('href'))).toEqual(['/campaigns/cmp-1', '/campaigns/cmp-2']);
    expect(links[0]!.textContent).toMatch(/^replay of 7 at 4 Dec/);
    expect(screen.getByTestId('trend-marks').textContent).toMatch(/^Marked \(dashed lines\): replay of 7 at .* · move of 1,200 at /);
  });

  it('shows nothing when there are none', () => {
    const { container } = render(<ChartMarks marks={[]} />);
    expect(container.textContent).toBe('');
  });
});
