// What the component tests (`components/**/*.dom.test.tsx`, the `component` vitest project)
// render with: the app's providers around the real component, and `fetch` answered from a
// table of the console's GET routes. Server actions are the other boundary: each test file
// replaces their module with vi.mock, so nothing here reaches a server.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import { AppRouterContext, type AppRouterInstance } from 'next/dist/shared/lib/app-router-context.shared-runtime';
import type { ReactElement, ReactNode } from 'react';
import { vi } from 'vitest';
import { ToastProvider } from '@/components/ui/toasts';
import { EnvironmentProvider, type Environments } from '@/lib/client/environment';
import { RefreshProvider } from '@/lib/client/refresh';

/** A route's answer: a JSON body (status 200), or a status with the API's error body. */
export type Answer = unknown | { status: number; error: { code: string; message: string } };
export type Routes = Record<string, Answer | ((url: URL) => Answer)>;

const isError = (a: unknown): a is { status: number; error: { code: string; message: string } } =>
  !!a && typeof a === 'object' && 'status' in a && 'error' in a;

/**
 * Replaces `fetch` with the routes given, keyed by path (`/api/brokers/b1/queues`); a path not
 * listed answers 404 NotFound as the API would. Returns the mock, to count the calls.
 */
export function mockApi(routes: Routes) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, window.location.origin);
    const route = routes[url.pathname];
    const answer = typeof route === 'function' ? (route as (u: URL) => Answer)(url) : route;
    if (route === undefined) return Response.json({ error: { code: 'NotFound', message: `no route ${url.pathname}` } }, { status: 404 });
    if (isError(answer)) return Response.json({ error: answer.error }, { status: answer.status });
    return Response.json(answer);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** A router that records where the component navigates. */
export function fakeRouter(): AppRouterInstance & { push: ReturnType<typeof vi.fn> } {
  return {
    back: vi.fn(),
    forward: vi.fn(),
    refresh: vi.fn(),
    push: vi.fn(),
    replace: vi.fn(),
    prefetch: vi.fn(),
  } as unknown as AppRouterInstance & { push: ReturnType<typeof vi.fn> };
}

/** Renders `ui` inside the console's providers (react-query without retries, toasts, refresh,
 *  the environments configured: none unless given);
 *  `rerender` keeps them, as a page re-rendering with new props would. */
export function renderInApp(
  ui: ReactElement,
  router: AppRouterInstance = fakeRouter(),
  environments?: Environments,
): RenderResult & { client: QueryClient } {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <AppRouterContext.Provider value={router}>
      <QueryClientProvider client={client}>
        <EnvironmentProvider value={environments}>
          <RefreshProvider>
            <ToastProvider>{children}</ToastProvider>
          </RefreshProvider>
        </EnvironmentProvider>
      </QueryClientProvider>
    </AppRouterContext.Provider>
  );
  return Object.assign(render(ui, { wrapper }), { client });
}
