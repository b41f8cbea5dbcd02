'use client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ToastProvider } from '@/components/ui/toasts';
import { EnvironmentProvider, type Environments } from '@/lib/client/environment';
import { RefreshProvider } from '@/lib/client/refresh';

export function Providers({ children, environments }: { children: ReactNode; environments?: Environments }) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          // Hydrated data is fresh for a moment so the first render does not refetch at once.
          queries: { staleTime: 4000, retry: 1, refetchOnWindowFocus: true },
          // Writes are never retried: a retried replay could act twice.
          mutations: { retry: false },
        },
      }),
  );
  return (
    <QueryClientProvider client={client}>
      <EnvironmentProvider value={environments}>
        <RefreshProvider>
          <ToastProvider>{children}</ToastProvider>
        </RefreshProvider>
      </EnvironmentProvider>
    </QueryClientProvider>
  );
}
