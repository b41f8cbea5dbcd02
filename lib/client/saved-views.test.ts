import { describe, expect, it } from 'vitest';
import { MAX_VIEWS, VIEWS_KEY, descriptionProblem, isConsolePath, nameProblem, readViews, removeView, saveView } from './saved-views';
import { MAX_VIEW_DESCRIPTION } from '@/lib/views/schema';

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

describe('a saved view’s description', () => {
  it('is kept trimmed when given, left out when empty, and a view with one too long is not saved', () => {
    const [v] = saveView([], 'a', '/brokers/shop/dead', 1, '  bounced mail  ');
    expect(v).toEqual({ name: 'a', href: '/brokers/shop/dead', at: 1, description: 'bounced mail' });
    expect(saveView([], 'a', '/brokers/shop/dead', 1, '  ')[0]).toEqual({ name: 'a', href: '/brokers/shop/dead', at: 1 });
    expect(saveView([], 'a', '/brokers/shop/dead', 1, 'x'.repeat(MAX_VIEW_DESCRIPTION + 1))).toEqual([]);
    expect(descriptionProblem('line\u0000')).toBe('no control characters');
    // A stored description that is not text, or too long, drops the view when read.
    const raw = JSON.stringify([
      v,
      { ...v, name: 'b', description: 5 },
      { ...v, name: 'c', description: 'x'.repeat(MAX_VIEW_DESCRIPTION + 1) },
    ]);
    expect(readViews({ getItem: () => raw }).map((x) => x.name)).toEqual(['a']);
  });
});
