/// <reference types="@vitest/browser/providers/playwright" />
import { defineConfig } from 'vitest/config';
import path from 'node:path';

// Three projects: `unit` touches nothing external; `int` talks to real brokers and the real
// potatoq package (slow, serial per file); `component` renders components in a real DOM
// (Debian's Chromium, the same executable rule as playwright.config.ts), files named
// `*.dom.test.tsx` beside the component they test. A unit test sits beside the code it tests;
// every integration test lives under tests/ (tests/layout.test.ts holds the rule).
const alias = { '@': path.resolve(__dirname), 'server-only': path.resolve(__dirname, 'tests/support/server-only-stub.ts') };

export default defineConfig({
  resolve: { alias },
  test: {
    // An uncaught exception or unhandled rejection fails the test it happened in.
    setupFiles: ['tests/support/no-escapes.ts'],
    // Tests change a broker from outside and read it at once: shared reads (a 2 s reuse by
    // default, lib/brokers/read-cache.ts) are off unless a test turns them on itself. A metrics
    // snapshot waits for every read (a 60 s budget): a loaded machine's slow read is not a
    // stale one, except in the tests of the budget (tests/metrics/down-broker.int.test.ts).
    env: { POTATOQ_CONSOLE_READ_CACHE_MS: '0', POTATOQ_CONSOLE_METRICS_BUDGET_MS: '60000' },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['lib/**/*.test.ts', 'components/**/*.test.ts', 'app/**/*.test.ts', 'tests/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/*.dom.test.tsx', 'node_modules/**'],
          environment: 'node',
        },
      },
      {
        extends: true,
        // fileParallelism is a root-only option in vitest 3: scripts/test-all.sh passes
        // --no-file-parallelism when it runs this project.
        test: {
          name: 'int',
          include: ['tests/**/*.int.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        // Not `extends`: the root setup file listens on `process`, which a browser has not; an
        // error escaping in the page fails the run through vitest's own browser handler.
        resolve: { alias },
        // Bundled before the first test, and only these: a dependency discovered mid-run reloads
        // the page and fails the test that was running, and discovery would also crawl past the
        // mocked server actions into server-only packages. A component test that needs another
        // package lists it here.
        optimizeDeps: {
          noDiscovery: true,
          include: [
            'react',
            'react/jsx-dev-runtime',
            'react/jsx-runtime',
            'react-dom',
            'react-dom/client',
            '@tanstack/react-query',
            '@testing-library/react',
            '@testing-library/dom',
            'next/link',
            'next/navigation',
            'next/dist/shared/lib/app-router-context.shared-runtime',
            'zod',
          ],
        },
        test: {
          name: 'component',
          include: ['components/**/*.dom.test.tsx'],
          setupFiles: ['tests/support/dom-setup.ts'],
          browser: {
            enabled: true,
            provider: 'playwright',
            headless: true,
            screenshotFailures: false,
            instances: [{ browser: 'chromium', launch: { executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium' } }],
          },
        },
      },
    ],
  },
});
