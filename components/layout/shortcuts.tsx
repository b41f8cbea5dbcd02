'use client';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Dialog } from '@/components/ui/dialog';

const SHORTCUTS: Array<[string, string]> = [
  ['/', 'Find by id (the search box at the top)'],
  ['r', 'Refresh now'],
  ['?', 'Show this help'],
  ['Esc', 'Close a dialog'],
];

function typingIn(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));
}

/** Global keyboard shortcuts and the `?` help dialog. */
export function Shortcuts() {
  const [help, setHelp] = useState(false);
  const qc = useQueryClient();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || typingIn(e.target)) return;
      if (document.querySelector('dialog[open]') && e.key !== '?') return;
      if (e.key === '/') {
        const search = document.querySelector<HTMLInputElement>('[data-shortcut="find"]');
        if (search) {
          e.preventDefault();
          search.focus();
        }
      } else if (e.key === 'r') {
        void qc.invalidateQueries();
      } else if (e.key === '?') {
        setHelp((h) => !h);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [qc]);
  return (
    <>
      <button
        type="button"
        onClick={() => setHelp(true)}
        data-testid="help-button"
        aria-label="Keyboard shortcuts"
        className="rounded-md px-2 py-1 text-sm text-zinc-600 hover:bg-zinc-200 dark:text-zinc-300 dark:hover:bg-zinc-800"
      >
        ?
      </button>
      <Dialog open={help} onClose={() => setHelp(false)} title="Keyboard shortcuts" testId="help-dialog">
        <table className="table-base">
          <tbody>
            {SHORTCUTS.map(([key, what]) => (
              <tr key={key}>
                <td className="w-16">
                  <kbd className="rounded border border-zinc-300 px-1.5 py-0.5 font-mono text-xs dark:border-zinc-700">{key}</kbd>
                </td>
                <td>{what}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="mt-4 text-right">
          <button type="button" className="link text-sm" onClick={() => setHelp(false)}>
            Close
          </button>
        </div>
      </Dialog>
    </>
  );
}
