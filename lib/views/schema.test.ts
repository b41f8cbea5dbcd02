import { describe, expect, it } from 'vitest';
import { fieldsOf } from '@/lib/brokers/parse-input';
import { teamViewEdit, teamViewInput, viewHrefProblem, ZTeamViewRemove } from './schema';

const problem = (href: string, broker = 'shop') => viewHrefProblem(href, broker);

describe('team view validation', () => {
  it("takes each list page of the broker with that list's own filters", () => {
    expect(problem('/brokers/shop/dead?queue=emails&group=fp-1&q=card%2C%20declined')).toBeNull();
    expect(problem('/brokers/shop/queues/emails?state=scheduled&task=send')).toBeNull();
    expect(problem('/brokers/shop/results?status=FAILURE')).toBeNull();
    expect(problem('/brokers/my%20shop/dead', 'my shop')).toBeNull();
    expect(problem('/brokers/shop/dead')).toBeNull();
  });

  it('refuses links that leave the console or name another broker', () => {
    for (const href of [
      'https://evil.example/brokers/shop/dead',
      '//evil.example/brokers/shop/dead',
      'javascript:alert(1)',
      '/\\evil',
      'brokers/shop/dead',
    ])
      expect(problem(href)).toMatch(/path of this console/);
    expect(problem('/brokers/other/dead')).toMatch(/list of broker "shop"/);
    expect(problem('/brokers/shop/dead#x')).toMatch(/path of this console/);
  });

  it('refuses pages that are not lists and filters a list does not have, naming them', () => {
    expect(problem('/brokers/shop/enqueue')).toMatch(/list page/);
    expect(problem('/brokers/shop/queues/a/b')).toMatch(/list page/);
    expect(problem('/brokers/shop/results?queue=x')).toBe('"queue" is not a filter of results (filters: status, since, until)');
    expect(problem('/brokers/shop/dead?state=ready')).toMatch(/"state" is not a filter of dead letters/);
    expect(problem(`/brokers/shop/dead?q=${'x'.repeat(501)}`)).toMatch(/longer than 500/);
    expect(problem('/brokers/shop/dead?since=1h&until=2026-12-04T20%3A00%3A00Z')).toBeNull();
    expect(problem('/brokers/shop/dead?since=yesterday')).toMatch(/"since" is not a time/);
    // A queue's task tabs keep their range of enqueued times as written.
    expect(problem('/brokers/shop/queues/emails?state=ready&since=2h')).toBeNull();
    expect(problem('/brokers/shop/queues/emails?until=soon')).toMatch(/"until" is not a time/);
    expect(problem(`/brokers/shop/dead?q=${'x'.repeat(2100)}`)).toMatch(/at most 2000/);
  });

  it('names the field of a bad name or link, and trims names', () => {
    const schema = teamViewInput('shop');
    const bad = (input: unknown) => {
      const r = schema.safeParse(input);
      return r.success ? null : fieldsOf(r.error);
    };
    expect(bad({ name: '  ', href: '/brokers/shop/dead' })).toEqual({ name: 'give the view a name' });
    expect(bad({ name: 'x'.repeat(81), href: '/brokers/shop/dead' })).toEqual({ name: 'at most 80 characters' });
    expect(bad({ name: 'a\u0007b', href: '/brokers/shop/dead' })).toEqual({ name: 'no control characters' });
    expect(bad({ name: 'ok', href: '/brokers/x/dead' })).toMatchObject({ href: expect.stringMatching(/broker "shop"/) });
    expect(bad({ name: 'ok' })).toMatchObject({ href: expect.any(String) });
    expect(bad({ name: 'ok', href: '/brokers/shop/dead', extra: 1 })).toMatchObject({ _: expect.any(String) });
    expect(schema.parse({ name: '  Card declines ', href: '/brokers/shop/dead?q=card' })).toEqual({
      name: 'Card declines',
      href: '/brokers/shop/dead?q=card',
    });
    expect(ZTeamViewRemove.safeParse({ name: '' }).success).toBe(false);
  });

  it('names the field of a bad edit the same way: the new name, the link, the description, the version', () => {
    const schema = teamViewEdit('shop');
    const bad = (input: unknown) => {
      const r = schema.safeParse(input);
      return r.success ? null : fieldsOf(r.error);
    };
    const ok = { name: 'mail', version: 3, newName: 'mail (EU)', href: '/brokers/shop/dead?queue=mail', description: ' EU\nonly ' };
    expect(schema.parse(ok)).toEqual({ ...ok, description: 'EU\nonly' });
    expect(bad({ ...ok, newName: ' ' })).toEqual({ newName: 'give the view a name' });
    expect(bad({ ...ok, href: 'https://evil.example/brokers/shop/dead' })).toMatchObject({
      href: expect.stringMatching(/path of this console/),
    });
    expect(bad({ ...ok, description: 'x'.repeat(501) })).toEqual({ description: 'at most 500 characters' });
    expect(bad({ ...ok, description: 'a\u0000b' })).toEqual({ description: 'no control characters' });
    expect(bad({ ...ok, version: 0 })).toMatchObject({ version: expect.any(String) });
    expect(bad({ name: 'mail', newName: 'x', href: '/brokers/shop/dead' })).toMatchObject({ version: expect.any(String) });
  });
});
