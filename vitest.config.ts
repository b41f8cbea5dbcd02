import { defineConfig } from 'vitest/config';
import path from 'node:path';

// Two projects: `unit` touches nothing external; `int` talks to real brokers and the real
// potatoq package (slow, serial per file). A unit test sits beside the code it tests; every
// integration test lives under tests/ (tests/layout.test.ts holds the rule).
export default defineConfig({
  resolve: { alias: { '@': path.resolve(__dirname), 'server-only': path.resolve(__dirname, 'tests/support/server-only-stub.ts') } },
  test: {
    // An uncaught exception or unhandled rejection fails the test it happened in.
    setupFiles: ['tests/support/no-escapes.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['lib/**/*.test.ts', 'components/**/*.test.ts', 'app/**/*.test.ts', 'tests/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', 'node_modules/**'],
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
    ],
  },
});
