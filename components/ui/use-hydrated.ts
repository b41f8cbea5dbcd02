'use client';
import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/** False on the server and while the page hydrates, true once React handles events. */
export const useHydrated = (): boolean =>
  useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
