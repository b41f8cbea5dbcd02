import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';
import prettier from 'eslint-config-prettier/flat';

// typescript-eslint, React's hooks rules and Next's own, through eslint-config-next; formatting
// is Prettier's alone (eslint-config-prettier turns off the rules that would fight it).
// `npm run lint` runs with --max-warnings 0, so a warning fails `npm test` too.
export default defineConfig([
  ...nextVitals,
  ...nextTs,
  prettier,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  globalIgnores([
    '.next/**',
    '.next-*/**',
    // The npm package's build (scripts/pack-build.mjs).
    'dist/**',
    'node_modules/**',
    '.venv/**',
    'test-results/**',
    'playwright-report/**',
    'next-env.d.ts',
    'lib/potatoq/__fixtures__/**',
    'public/**',
  ]),
]);
