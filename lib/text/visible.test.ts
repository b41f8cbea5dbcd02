import { describe, expect, it } from 'vitest';
import { truncate } from '@/lib/text/format';
import { hasVisibleText, visible } from './visible';

describe('hidden and bidi characters', () => {
  it('shows a right-to-left override, zero-width characters and controls as markers', () => {
    expect(visible('invoice\u202Egpj.exe')).toBe('invoice⟨U+202E⟩gpj.exe');
    expect(visible('a\u200Bb\u200Dc\uFEFFd\u2066e\u0007f')).toBe('a⟨U+200B⟩b⟨U+200D⟩c⟨U+FEFF⟩d⟨U+2066⟩e⟨U+0007⟩f');
    expect(visible('tag\u{E0041}')).toBe('tag⟨U+E0041⟩');
  });

  it('leaves ordinary text, tabs, newlines and non-Latin scripts alone', () => {
    const text = 'send_email\tqueue\nполучить 発送 مرحبا';
    expect(visible(text)).toBe(text);
  });

  it('marks what list cells show', () => {
    expect(truncate('x\u202Ey', 80)).toBe('x⟨U+202E⟩y');
  });

  it('counts only text a reader can see as a reason', () => {
    expect(hasVisibleText('\u200B\u200B\u200B')).toBe(false);
    expect(hasVisibleText(' \u202E\u2060\t ')).toBe(false);
    expect(hasVisibleText('\u200BOPS-1')).toBe(true);
    expect(hasVisibleText('修正')).toBe(true);
  });
});
