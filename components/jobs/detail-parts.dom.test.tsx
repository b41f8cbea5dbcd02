import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderInApp } from '@/tests/support/component';
import { HOSTILE } from '@/tests/support/component-fixtures';
import { Fields, RelatedFields } from './detail-parts';

describe('RelatedFields', () => {
  it('links each related task to its page under its relation, the id shown as text, and says when there are more', () => {
    renderInApp(
      <Fields>
        <RelatedFields
          brokerId="b 1"
          related={[
            { id: 'p-1', rel: 'Fan-out parent' },
            { id: 'c-1', rel: 'Sub-jobs' },
            { id: HOSTILE, rel: 'Sub-jobs' },
          ]}
          more
        />
      </Fields>,
    );
    const rows = screen.getAllByTestId('detail-related');
    expect(rows.map((r) => r.previousElementSibling?.textContent)).toEqual(['Fan-out parent', 'Sub-jobs']);
    expect(screen.getByRole('link', { name: 'p-1' }).getAttribute('href')).toBe('/brokers/b%201/jobs/p-1');
    const odd = rows[1]!.querySelectorAll('a')[1]!;
    expect(odd.getAttribute('href')).toBe(`/brokers/b%201/jobs/${encodeURIComponent(HOSTILE)}`);
    expect(document.querySelector('img')).toBeNull();
    expect(rows.at(-1)!.textContent).toContain('(and more)');
  });

  it('shows nothing where the system links no task', () => {
    renderInApp(
      <Fields>
        <RelatedFields brokerId="b1" />
      </Fields>,
    );
    expect(screen.queryByTestId('detail-related')).toBeNull();
  });
});
