'use client';
import { useState } from 'react';
import { useHydrated } from '@/components/ui/use-hydrated';

const KEY = 'potatoq-console-theme';

/** Toggles the `dark` class and remembers the choice; /theme-init.js applies it before paint. */
export function ThemeToggle() {
  // Null until hydrated (the server can't know the theme), then the page's class until toggled.
  const hydrated = useHydrated();
  const [chosen, setDark] = useState<boolean | null>(null);
  const dark = chosen ?? (hydrated ? document.documentElement.classList.contains('dark') : null);
  const toggle = () => {
    const next = !document.documentElement.classList.contains('dark');
    document.documentElement.classList.toggle('dark', next);
    try {
      localStorage.setItem(KEY, next ? 'dark' : 'light');
    } catch {}
    setDark(next);
  };
  return (
    <button
      type="button"
      onClick={toggle}
      data-testid="theme-toggle"
      aria-label={dark ? 'Switch to light mode' : 'Switch to dark mode'}
      title="Toggle dark mode"
      className="rounded-md px-2 py-1 text-sm text-zinc-600 hover:bg-zinc-200 dark:text-zinc-300 dark:hover:bg-zinc-800"
    >
      {dark ? '☀︎' : '☾'}
    </button>
  );
}
