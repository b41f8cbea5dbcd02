'use client';
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { useHydrated } from './use-hydrated';
import type { ToastSpec } from '@/lib/client/outcome-toasts';

interface Toast extends ToastSpec {
  key: number;
}

/** Successes fade after this long; errors stay until dismissed, so none is missed. */
const SUCCESS_MS = 8000;
/** Oldest toasts are dropped past this many on screen. */
const MAX_ON_SCREEN = 8;

const ToastContext = createContext<(toasts: ToastSpec[]) => void>(() => {});
/** Registers an element the toasts render into while it is mounted (see useToastOutlet). */
const OutletContext = createContext<(el: HTMLElement) => () => void>(() => () => {});

/** Push toasts from anywhere under the provider. */
export const useToasts = () => useContext(ToastContext);

/**
 * A modal <dialog> makes the rest of the page inert, toasts included, so an open dialog lends
 * them its element: they render inside it (still fixed to the viewport's corner) and can be
 * read and dismissed, then move back to the page when it closes.
 */
export function useToastOutlet(ref: RefObject<HTMLElement | null>): void {
  const register = useContext(OutletContext);
  useEffect(() => (ref.current ? register(ref.current) : undefined), [ref, register]);
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const dismiss = useCallback((key: number) => setToasts((all) => all.filter((t) => t.key !== key)), []);
  const push = useCallback((specs: ToastSpec[]) => {
    if (!specs.length) return;
    setToasts((all) => [...all, ...specs.map((s) => ({ ...s, key: next.current++ }))].slice(-MAX_ON_SCREEN));
  }, []);
  // The innermost open dialog wins; the page's body otherwise (null until mounted: no SSR).
  const [outlets, setOutlets] = useState<HTMLElement[]>([]);
  const body = useHydrated() ? document.body : null;
  const register = useCallback((el: HTMLElement) => {
    setOutlets((all) => [...all, el]);
    return () => setOutlets((all) => all.filter((x) => x !== el));
  }, []);
  const target = outlets.at(-1) ?? body;
  // Beside an open dialog (36rem wide, centred) they take the room right of it, so they never
  // cover its buttons on a laptop's screen (at 1360 px: 360 px wide instead of 416).
  const width = outlets.length ? 'w-[min(26rem,max(16rem,calc((100vw-36rem)/2-2rem)))]' : 'w-[min(26rem,calc(100vw-2rem))]';
  const viewport = (
    <div
      className={`pointer-events-none fixed right-4 bottom-4 z-50 grid ${width} gap-2`}
      data-testid="toasts"
      aria-live="polite"
      role="region"
      aria-label="Action outcomes"
    >
      {toasts.map((t) => (
        <ToastItem key={t.key} toast={t} onDismiss={dismiss} />
      ))}
    </div>
  );
  return (
    <ToastContext.Provider value={push}>
      <OutletContext.Provider value={register}>
        {children}
        {target ? createPortal(viewport, target) : null}
      </OutletContext.Provider>
    </ToastContext.Provider>
  );
}

const TONE: Record<ToastSpec['tone'], string> = {
  success: 'border-emerald-300 bg-emerald-50 text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-100',
  error: 'border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100',
  info: 'border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100',
};

function ToastItem({ toast, onDismiss }: { toast: Toast; onDismiss: (key: number) => void }) {
  const [hover, setHover] = useState(false);
  useEffect(() => {
    if (toast.tone === 'error' || hover) return;
    const t = setTimeout(() => onDismiss(toast.key), SUCCESS_MS);
    return () => clearTimeout(t);
  }, [toast, hover, onDismiss]);
  return (
    <div
      className={`pointer-events-auto flex items-start gap-2 rounded-md border px-3 py-2 text-sm shadow-md ${TONE[toast.tone]}`}
      data-testid="toast"
      data-tone={toast.tone}
      role={toast.tone === 'error' ? 'alert' : 'status'}
      onMouseEnter={() => setHover(true)}
      onMouseLeave={() => setHover(false)}
    >
      <div className="grid min-w-0 flex-1 gap-0.5">
        <p className="font-medium wrap-anywhere" data-testid="toast-title">
          {toast.title}
        </p>
        {toast.body ? <p className="text-xs wrap-anywhere opacity-90">{toast.body}</p> : null}
      </div>
      <button
        type="button"
        className="shrink-0 rounded px-1 text-base leading-none opacity-70 hover:opacity-100"
        aria-label="Dismiss"
        onClick={() => onDismiss(toast.key)}
      >
        ×
      </button>
    </div>
  );
}
