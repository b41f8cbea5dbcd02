import type { ReactNode } from 'react';

/** An error from a broker or the API, with its code: one failing broker never blanks a page. */
export function ErrorBox({ code, message, children }: { code: string; message: string; children?: ReactNode }) {
  return (
    <div
      role="alert"
      data-testid="error-box"
      className="rounded-md border border-red-300 bg-red-50 p-3 text-sm dark:border-red-900 dark:bg-red-950/50"
    >
      <p className="font-semibold text-red-800 dark:text-red-300">
        <span data-testid="error-code">{code}</span>
      </p>
      <p className="mt-1 break-words text-red-900 dark:text-red-200" data-testid="error-message">
        {message}
      </p>
      {children}
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return (
    <p data-testid="empty" className="px-4 py-8 text-center text-sm text-zinc-500 dark:text-zinc-400">
      {children}
    </p>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p role="status" className="px-4 py-8 text-center text-sm text-zinc-500 dark:text-zinc-400">
      {label}
    </p>
  );
}

export function PageTitle({ children, sub }: { children: ReactNode; sub?: ReactNode }) {
  return (
    <div className="mb-4">
      <h1 className="text-xl font-semibold break-words">{children}</h1>
      {sub ? <p className="mt-1 text-sm text-zinc-500 dark:text-zinc-400">{sub}</p> : null}
    </div>
  );
}
