// What adding a system costs the shared code (docs/adding-a-system.md, "The files outside it"):
// outside its own folders, the console's code names a system in code (a string literal that is
// its kind, an import of its folder) only in the places the recipe lists: the shared code (the
// contract, the service, the pages and components) never branches on a system. Comments may name it;
// tests, e2e specs, benchmarks and docs are not the console's code. This is the recipe's proof:
// Simple Durable Jobs, the fourth system, passes it with the registry line and its kind, so the
// next system's shared footprint is the same two lines.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { SYSTEM_KINDS } from '@/lib/brokers/model';

const root = path.resolve(__dirname, '..');
const CODE_DIRS = ['lib', 'components', 'app'];
const CODE_FILES = ['proxy.ts', 'instrumentation.ts'];

/** Shared files that may name a system in code, each with why (the recipe's list). */
const ALLOWED: Record<string, string> = {
  'lib/brokers/systems.ts': 'the registry: the one table of systems',
  'lib/brokers/model.ts': '`SYSTEM_KINDS`, the kinds a configuration may name',
  'lib/config.ts': 'potatoq is the kind of an entry that names none, and of the embedded demo broker',
};

/** A system's own code: its adapter folder and a block named for it (potatoq's wire format). */
const ownFolders = (kind: string) => [`lib/brokers/${kind}/`, `lib/${kind}/`];

/** The embedded demo broker is potatoq's SQLite file (the recipe's "still potatoq-only"). */
const OWNED_ELSEWHERE: Record<string, string[]> = { potatoq: ['lib/demo/'] };

function walk(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) walk(rel, out);
    else if (/\.tsx?$/.test(e.name) && !/\.(test|spec)\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

/** The string literals of a source (comments skipped by the scanner), with their lines. */
function literals(source: string, jsx: boolean): { text: string; line: number }[] {
  const lineOf = (pos: number) => source.slice(0, pos).split('\n').length;
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, jsx ? ts.LanguageVariant.JSX : ts.LanguageVariant.Standard, source);
  const out: { text: string; line: number }[] = [];
  // Braces open inside each template substitution, so a `}` ends the substitution only at depth 0.
  const depths: number[] = [];
  for (let k = scanner.scan(); k !== ts.SyntaxKind.EndOfFileToken; k = scanner.scan()) {
    if (k === ts.SyntaxKind.OpenBraceToken && depths.length) depths[depths.length - 1]! += 1;
    if (k === ts.SyntaxKind.CloseBraceToken && depths.length) {
      if (depths[depths.length - 1] === 0) k = scanner.reScanTemplateToken(false);
      else depths[depths.length - 1]! -= 1;
    }
    if (k === ts.SyntaxKind.TemplateHead) depths.push(0);
    if (k === ts.SyntaxKind.TemplateTail) depths.pop();
    if (
      k === ts.SyntaxKind.StringLiteral ||
      k === ts.SyntaxKind.NoSubstitutionTemplateLiteral ||
      k === ts.SyntaxKind.TemplateHead ||
      k === ts.SyntaxKind.TemplateMiddle ||
      k === ts.SyntaxKind.TemplateTail
    )
      out.push({ text: scanner.getTokenValue(), line: lineOf(scanner.getTokenStart()) });
  }
  return out;
}

/** Where `file` names `kind` in code: its kind as a literal, or an import into its folders. */
function namings(file: string, source: string, kind: string): string[] {
  const own = ownFolders(kind);
  return literals(source, file.endsWith('.tsx')).flatMap(({ text, line }) => {
    const spec = text.startsWith('@/') ? text.slice(2) : text.startsWith('.') ? path.posix.join(path.posix.dirname(file), text) : null;
    const intoFolder = spec !== null && own.some((f) => `${spec}/`.startsWith(f));
    return text === kind || intoFolder ? [`${file}:${line} ${JSON.stringify(text)}`] : [];
  });
}

describe('what a system costs the shared code', () => {
  const files = [...CODE_DIRS.flatMap((d) => walk(d)), ...CODE_FILES.filter((f) => ts.sys.fileExists(path.join(root, f)))];
  // Every system's own code may name another system's formats ("celery" for a Celery message
  // in potatoq's queue); importing another system's folder is check-layers' `system` rule.
  const owned = SYSTEM_KINDS.flatMap((k) => [...ownFolders(k), ...(OWNED_ELSEWHERE[k] ?? [])]);
  const shared = files.filter((f) => !owned.some((m) => f.startsWith(m)));

  it.each([...SYSTEM_KINDS])('names %s in code only in its folders and the recipe’s shared files', (kind) => {
    const found = shared.filter((f) => !(f in ALLOWED)).flatMap((f) => namings(f, readFileSync(path.join(root, f), 'utf8'), kind));
    expect(found).toEqual([]);
  });

  it('sees a kind in code and an import of a system folder, not a kind in a comment', () => {
    const src = [
      "// a comment naming 'sdj' is fine",
      "import { x } from '@/lib/brokers/sdj/adapter';",
      "import { y } from '../sdj/model';",
      'const k = `sdj`;',
      "if (kind === 'sdj') go();",
      "const s = 'sdj-pg';",
      'const t = `${a ? { b: 1 }.b : 2}:${"sdj"}`;',
    ].join('\n');
    expect(namings('lib/brokers/other/a.ts', src, 'sdj')).toEqual([
      'lib/brokers/other/a.ts:2 "@/lib/brokers/sdj/adapter"',
      'lib/brokers/other/a.ts:3 "../sdj/model"',
      'lib/brokers/other/a.ts:4 "sdj"',
      'lib/brokers/other/a.ts:5 "sdj"',
      'lib/brokers/other/a.ts:7 "sdj"',
    ]);
  });
});
