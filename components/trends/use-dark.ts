'use client';
import { useSyncExternalStore } from 'react';

// The page's theme is the `dark` class on <html> (components/layout/theme-toggle.tsx); charts
// drawn on a canvas must redraw when it changes.
function subscribe(onChange: () => void): () => void {
  const obs = new MutationObserver(onChange);
  obs.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
  return () => obs.disconnect();
}

export function useDark(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => document.documentElement.classList.contains('dark'),
    () => false,
  );
}
