import { defineConfig } from 'vitest/config';
import path from 'node:path';

// Two projects: `unit` touches nothing external; `int` talks to real brokers and the real
// potatoq package (slow, serial per file).
export default defineConfig({
  resolve: { alias: { '@': path.resolve(__dirname), 'server-only': path.resolve(__dirname, 'lib/testing/server-only-stub.ts') } },
  test: {
    // An uncaught exception or unhandled rejection fails the test it happened in.
    setupFiles: ['tests/support/no-escapes.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['lib/**/*.test.ts', 'components/**/*.test.ts', 'app/**/*.test.ts', 'scripts/**/*.test.ts'],
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
          include: ['lib/**/*.int.test.ts', 'tests/**/*.int.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
