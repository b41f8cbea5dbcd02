#!/usr/bin/env node
// Keeps paths of a development machine and package-registry host names out of the project:
// a user has neither the team's folders nor any reason to read a registry's address here.
// Scans every file git tracks (text only) and exits 1 naming each hit; `npm test` runs it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const RULES = [
  { name: 'a development machine folder', re: /\/work\/|\/briefs\/|\/root\/|\/home\/[a-z]|\/tmp\/[\w.-]*venv\b/ },
  { name: 'the team notes folder', re: /\bshared\/(?:seed-systems|potatoq-contract|conventions)\.md/ },
  {
    name: 'a package registry host',
    re: /\b(?:pypi\.org|pythonhosted\.org|registry\.npmjs\.org|npmjs\.com|crates\.io|proxy\.golang\.org|sum\.golang\.org|deb\.debian\.org|repo1?\.maven\.org)\b/,
  },
];
const SKIP = new Set(['scripts/check-paths.mjs', 'package-lock.json']);

const files = execFileSync('git', ['ls-files', '-z'], { encoding: 'utf8', maxBuffer: 64 << 20 })
  .split('\0')
  .filter((f) => f && !SKIP.has(f));
const hits = [];
for (const f of files) {
  let text;
  try {
    const buf = readFileSync(f);
    if (buf.includes(0)) continue; // binary
    text = buf.toString('utf8');
  } catch {
    continue; // deleted in the work tree
  }
  text.split('\n').forEach((line, i) => {
    for (const r of RULES) if (r.re.test(line)) hits.push(`${f}:${i + 1}: ${r.name}: ${line.trim().slice(0, 120)}`);
  });
}
if (hits.length > 0) {
  console.error(`check-paths: ${hits.length} line(s) name what a user of the project does not have:`);
  for (const h of hits) console.error(`  ${h}`);
  process.exit(1);
}
console.log(`check-paths: ${files.length} files, none names a machine folder or a registry host`);
