import { defineConfig } from '@playwright/test';

// The auth specs start their own consoles (each on a free port), so they can run without the shared
// e2e servers: `npx playwright test -c e2e/auth.config.ts`. Under playwright.config.ts they
// run too, next to the shared servers.
export default defineConfig({
  testDir: '.',
  testMatch: ['auth-*.spec.ts'],
  outputDir: '../test-results/auth',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1360, height: 900 },
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    },
  },
});
