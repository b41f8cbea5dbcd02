'use client';
import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A modal on the native <dialog>: focus trapping, Esc to close and the dialog role come from
 * the browser. `open` is controlled by the parent.
 */
export function Dialog({
  open,
  onClose,
  title,
  children,
  testId,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  testId?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      data-testid={testId}
      aria-labelledby={testId ? `${testId}-title` : undefined}
      onClose={onClose}
      onCancel={onClose}
      className="m-auto w-[min(36rem,calc(100vw-2rem))] rounded-lg border border-zinc-200 bg-white p-0 text-zinc-900 shadow-xl dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
    >
      {open ? (
        <div className="p-5">
          <h2 id={testId ? `${testId}-title` : undefined} className="mb-3 text-lg font-semibold">
            {title}
          </h2>
          {children}
        </div>
      ) : null}
    </dialog>
  );
}
