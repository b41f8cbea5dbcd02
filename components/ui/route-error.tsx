'use client';
import { useEffect } from 'react';
import { Button } from './button';
import { ErrorBox } from './states';

/** The body of every error.tsx: the page failed, the rest of the console still works. */
export function RouteError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  useEffect(() => console.error(error), [error]);
  return (
    <div className="py-8" data-testid="route-error">
      <ErrorBox code={error.name || 'Error'} message={error.message || 'This page failed to load.'}>
        {error.digest ? <p className="mt-1 text-xs">Reference: {error.digest}</p> : null}
      </ErrorBox>
      <Button className="mt-4" onClick={reset}>
        Try again
      </Button>
    </div>
  );
}
