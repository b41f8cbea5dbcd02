'use client';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { EnvironmentNote } from '@/components/layout/environment-badge';
import { useToastOutlet } from './toasts';

interface DialogProps {
  onClose: () => void;
  title: string;
  children: ReactNode;
  testId?: string;
  /** The broker the dialog acts on: its environment ("production") is named under the title. */
  brokerId?: string;
}

/**
 * A modal on the native <dialog>: focus trapping, Esc to close and the dialog role come from
 * the browser. Mounted only while open, so a page holds at most one of each test id.
 */
export function Dialog({ open, ...props }: DialogProps & { open: boolean }) {
  if (!open) return null;
  return <OpenDialog {...props} />;
}

function OpenDialog({ onClose, title, children, testId, brokerId }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useToastOutlet(ref);
  useEffect(() => {
    const d = ref.current;
    // No close() in cleanup: its async close event would unmount a re-mounted dialog (Strict Mode).
    if (d && !d.open) d.showModal();
  }, []);
  return (
    <dialog
      ref={ref}
      data-testid={testId}
      aria-labelledby={titleId}
      onClose={onClose}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      className="m-auto w-[min(36rem,calc(100vw-2rem))] rounded-lg border border-zinc-200 bg-white p-0 text-zinc-900 shadow-xl dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
    >
      <div className="p-5">
        <h2 id={titleId} className="mb-3 text-lg font-semibold">
          {title}
        </h2>
        {brokerId ? <EnvironmentNote brokerId={brokerId} /> : null}
        {children}
      </div>
    </dialog>
  );
}
