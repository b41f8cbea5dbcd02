// Where tests and their support live (docs/adding-a-system.md, "Where tests live"): a unit test
// sits beside the code it tests; every integration test (`*.int.test.ts`, real services) and
// every module that exists only for tests (the contract battery, fixtures, fakes, seeders) lives
// under tests/. The app's code never imports a test runner or anything under tests/.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '..');
const SKIP = new Set(['node_modules', '.git', '.next', '.venv', '.rabbitmq', 'test-results', 'playwright-report']);
const APP_DIRS = ['lib', 'components', 'app'];

function walk(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    if (SKIP.has(e.name)) continue;
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory()) walk(rel, out);
    else out.push(rel);
  }
  return out;
}

const isTest = (file: string) => /\.(test|spec)\.tsx?$/.test(file);
const SPEC = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)['"]([^'"\n]+)['"]/g;

/** What a module imports that only tests may: a test runner, or a module under tests/. */
function testOnlyImports(file: string, source: string): string[] {
  const found: string[] = [];
  for (const [, spec = ''] of source.matchAll(SPEC)) {
    const target = spec.startsWith('@/') ? spec.slice(2) : spec.startsWith('.') ? path.posix.join(path.posix.dirname(file), spec) : null;
    const runner = /^(vitest|@vitest\/|@playwright\/test|@testing-library\/)/.test(spec);
    if (runner || (target !== null && (target === 'tests' || target.startsWith('tests/')))) found.push(spec);
  }
  return found;
}

/** Integration tests found outside tests/. */
function misplacedIntegrationTests(files: string[]): string[] {
  return files.filter((f) => f.endsWith('.int.test.ts') && !f.startsWith('tests/'));
}

describe('where tests live', () => {
  const files = walk('');

  it('keeps every integration test under tests/', () => {
    expect(misplacedIntegrationTests(files)).toEqual([]);
  });

  it('keeps test runners and test support out of the app code', () => {
    const offenders = files
      .filter((f) => APP_DIRS.some((d) => f.startsWith(`${d}/`)) && /\.(ts|tsx|mjs|js)$/.test(f) && !isTest(f))
      .flatMap((f) => testOnlyImports(f, readFileSync(path.join(root, f), 'utf8')).map((spec) => `${f} imports ${spec}`));
    expect(offenders).toEqual([]);
  });

  it('recognises what it forbids', () => {
    expect(misplacedIntegrationTests(['lib/x/y.int.test.ts', 'tests/x/y.int.test.ts', 'lib/x/y.test.ts'])).toEqual(['lib/x/y.int.test.ts']);
    const src = [
      "import { it } from 'vitest';",
      "import { test } from '@playwright/test';",
      "import { uniqueQueue } from '@/tests/contract';",
      "import { fake } from '../../tests/bulk/fake-backend';",
      "const m = await import('@/tests/support/auth');",
      "import { ok } from '@/lib/brokers/errors';",
      "import { near } from './tests-helpers';",
    ].join('\n');
    expect(testOnlyImports('lib/a/b.ts', src)).toEqual([
      'vitest',
      '@playwright/test',
      '@/tests/contract',
      '../../tests/bulk/fake-backend',
      '@/tests/support/auth',
    ]);
  });
});
