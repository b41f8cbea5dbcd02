import { defineConfig } from '@playwright/test';
import { brokersEnv, DEMO_PORT, E2E_PORT, prepareE2eBrokers } from './e2e/brokers';

// e2e against a production build (`next build` first; scripts/test-all.sh does it), served by
// `next start` on loopback, in Debian's Chromium. Broker files are temp SQLite files in
// potatoq's layout, created here so both servers and all workers share them.
const brokers = prepareE2eBrokers();
const distDir = process.env.NEXT_DIST_DIR || '.next';
const next = 'node node_modules/next/dist/bin/next start -H 127.0.0.1 --keepAliveTimeout 65000';
const serverEnv = { NEXT_DIST_DIR: distDir, NEXT_TELEMETRY_DISABLED: '1' };

export default defineConfig({
  testDir: 'e2e',
  testMatch: '*.spec.ts',
  outputDir: 'test-results',
  globalSetup: './e2e/global-setup.ts',
  globalTeardown: './e2e/teardown.ts',
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1360, height: 900 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    },
  },
  webServer: [
    {
      command: `${next} -p ${E2E_PORT}`,
      url: `http://127.0.0.1:${E2E_PORT}/api/health`,
      env: { ...serverEnv, POTATOQ_CONSOLE_BROKERS: brokersEnv(brokers), POTATOQ_CONSOLE_STATE: `${brokers.dir}/state.sqlite3` },
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: `${next} -p ${DEMO_PORT}`,
      url: `http://127.0.0.1:${DEMO_PORT}/api/health`,
      env: {
        ...serverEnv,
        POTATOQ_CONSOLE_BROKERS: '',
        POTATOQ_CONSOLE_DEMO_PATH: brokers.demo,
        POTATOQ_CONSOLE_STATE: `${brokers.dir}/demo-state.sqlite3`,
      },
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
});
