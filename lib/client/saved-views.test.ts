import { describe, expect, it } from 'vitest';
import { MAX_VIEWS, VIEWS_KEY, isConsolePath, nameProblem, readViews, removeView, saveView } from './saved-views';

describe('saved views', () => {
  it('saves newest first, replaces a view of the same name, removes by name', () => {
    let list = saveView([], 'emails', '/brokers/shop/dead?queue=emails', 1);
    list = saveView(list, 'billing', '/brokers/shop/dead?queue=billing', 2);
    list = saveView(list, ' emails ', '/brokers/shop/dead?queue=emails&task=x', 3);
    expect(list.map((v) => [v.name, v.href])).toEqual([
      ['emails', '/brokers/shop/dead?queue=emails&task=x'],
      ['billing', '/brokers/shop/dead?queue=billing'],
    ]);
    expect(removeView(list, 'emails').map((v) => v.name)).toEqual(['billing']);
  });

  it('keeps only console list pages: no other site, no script', () => {
    expect(isConsolePath('/brokers/shop/dead?queue=a')).toBe(true);
    expect(isConsolePath('/brokers/shop/queues/emails?state=ready')).toBe(true);
    for (const bad of [
      'https://evil.example/brokers/x/dead',
      '//evil.example/brokers/x/',
      'javascript:alert(1)',
      '/audit',
      '/brokers//x/dead',
    ])
      expect(isConsolePath(bad)).toBe(false);
    expect(saveView([], 'x', 'javascript:alert(1)', 1)).toEqual([]);
  });

  it('names what is wrong with a name', () => {
    expect(nameProblem('  ')).toBe('give the view a name');
    expect(nameProblem('x'.repeat(81))).toBe('at most 80 characters');
    expect(nameProblem('ok')).toBeNull();
  });

  it('reads only well-formed views, at most the limit', () => {
    const many = Array.from({ length: MAX_VIEWS + 5 }, (_, i) => ({ name: `v${i}`, href: `/brokers/b/dead?q=${i}`, at: i }));
    const store = (v: unknown) => ({ getItem: (k: string) => (k === VIEWS_KEY ? JSON.stringify(v) : null) });
    expect(readViews(store(many))).toHaveLength(MAX_VIEWS);
    expect(readViews(store([{ name: 'x', href: 'https://evil.example/', at: 1 }, { name: 1 }]))).toEqual([]);
    expect(readViews({ getItem: () => '{' })).toEqual([]);
  });
});
