import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Every page decides who is asking before it reads anything, whatever the proxy did: a page
// added later without the check fails here.
const APP = path.resolve(__dirname);
const PUBLIC_PAGES = new Set(['login/page.tsx']);

function files(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

describe('pages and layouts', () => {
  const pages = files(APP)
    .filter((f) => /\/(page|layout)\.tsx$/.test(f))
    .map((f) => path.relative(APP, f));

  it('finds the pages', () => {
    expect(pages.length).toBeGreaterThan(10);
  });

  it.each(pages.filter((p) => p.endsWith('page.tsx') && !PUBLIC_PAGES.has(p)))('%s checks the principal first', (p) => {
    const text = fs.readFileSync(path.join(APP, p), 'utf8');
    const body = text.slice(text.indexOf('export default async function'));
    expect(body.indexOf('{\n  await requireReader();'), p).toBeGreaterThan(0);
  });
});
