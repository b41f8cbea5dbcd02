'use client';
import { useEffect } from 'react';

/** How long after a task name is typed that the list lacks it is read again: past the moment the
 *  server shares a broker's reads between viewers (lib/brokers/shared-reads.ts, 2 s by default). */
export const NAMES_RECHECK_MS = 2_500;

/**
 * A form opened right after a task was first sent may hold the task names read just before it
 * (the server's shared read, or the page's own). A typed name the list lacks is read again once,
 * after that moment, so the queue can follow where the task was seen instead of calling it unseen.
 */
export function useRecheckUnknownName(task: string, known: readonly string[] | undefined, refetch: () => unknown) {
  const name = task.trim();
  const unknown = name !== '' && known !== undefined && !known.includes(name);
  useEffect(() => {
    if (!unknown) return;
    const t = setTimeout(() => void refetch(), NAMES_RECHECK_MS);
    return () => clearTimeout(t);
  }, [unknown, name, refetch]);
}
