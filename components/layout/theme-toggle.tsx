'use client';
import { useEffect, useState } from 'react';

const KEY = 'potatoq-console-theme';

/** Toggles the `dark` class and remembers the choice; /theme-init.js applies it before paint. */
export function ThemeToggle() {
  const [dark, setDark] = useState<boolean | null>(null);
  useEffect(() => setDark(document.documentElement.classList.contains('dark')), []);
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
