#!/usr/bin/env node
// The console's layering, checked over the import graph of its non-test sources (`lib/`,
// `components/`, `app/`, `instrumentation.ts`, `proxy.ts`; `*.test.ts(x)` files may import
// anything). Every import counts: `import`, `import type`, `export ... from` and `import()`;
// specifiers resolve through the `@/` alias, relative paths, `.ts`/`.tsx` and `index.ts(x)`.
//
// Rules (docs/architecture.md explains why):
//   cycle    no import cycle; each one is printed with its files.
//   upward   nothing under lib/ imports components/ or app/; components/ does not import app/.
//   system   a system folder lib/brokers/<system>/ (the systems are SYSTEM_KINDS in
//            lib/brokers/model.ts) imports no other system's folder, nor a block named for
//            another system (lib/<system>/, e.g. potatoq's wire format lib/potatoq/).
//   block    a shared block (lib/pyvalues, lib/celery-protocol, lib/transports, lib/text,
//            lib/triage) imports no system's code (lib/brokers/<system>/, lib/<system>/).
//   service  an adapter (lib/brokers/<system>/**) imports none of the console's services:
//            lib/state, lib/audit, lib/leases, lib/bulk, lib/trends (but its client-safe vocabulary,
//            ranges.ts and schema.ts: the trend windows and the one bucketing rule the
//            contract's histograms answer in), lib/auth, lib/actions, lib/client,
//            lib/metrics, lib/api, lib/demo, lib/config.ts and the broker service
//            (lib/brokers/service.ts and its service-*.ts parts, shared-reads.ts, registry.ts, systems.ts,
//            systems-context.ts, move*.ts).
//            What an adapter needs from them reaches it through the AdapterContext its
//            factory is given (lib/brokers/adapter-context.ts).
//
// Known `system`/`service`/`block` violations that are being moved away are listed in
// scripts/layers-baseline.txt, one `rule from -> to` a line. The baseline may only shrink:
// a line that no longer occurs fails the check too ("remove it"). Cycles and `upward`
// imports have no baseline.
//
// Usage: node scripts/check-layers.mjs [--root <dir>]   (exit 1 on any finding)
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const SERVICE_PREFIXES = [
  'lib/state/',
  'lib/audit/',
  'lib/leases/',
  'lib/bulk/',
  'lib/trends/',
  'lib/auth/',
  'lib/actions/',
  'lib/client/',
  'lib/metrics/',
  'lib/api/',
  'lib/demo/',
  'lib/config-file/',
  'lib/doctor/',
];
const SERVICE_FILES = new Set([
  'lib/config.ts',
  'lib/brokers/service.ts',
  'lib/brokers/service-core.ts',
  'lib/brokers/service-overview.ts',
  'lib/brokers/service-reads.ts',
  'lib/brokers/service-actions.ts',
  'lib/brokers/service-workflows.ts',
  'lib/brokers/shared-reads.ts',
  'lib/brokers/registry.ts',
  'lib/brokers/systems.ts',
  'lib/brokers/systems-context.ts',
]);
/** Client-safe vocabulary inside a service folder, which the contract uses too. */
const NOT_SERVICES = new Set(['lib/trends/ranges.ts', 'lib/trends/schema.ts']);
const SERVICE_PATTERN = /^lib\/brokers\/(move[\w-]*|service[\w-]*|schedules-service)\.ts$/;
/** Shared building blocks, named for what they are: they serve every system and import none. */
const BLOCK_PREFIXES = ['lib/pyvalues/', 'lib/celery-protocol/', 'lib/transports/', 'lib/text/', 'lib/triage/'];
const BASELINE = 'scripts/layers-baseline.txt';
const ROOTS = ['lib', 'components', 'app', 'instrumentation.ts', 'proxy.ts'];

const isTest = (f) => /\.test\.tsx?$/.test(f);
const isSource = (f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts') && !isTest(f);

function listFiles(root) {
  const out = [];
  const walk = (rel) => {
    const abs = path.join(root, rel);
    if (!existsSync(abs)) return;
    if (statSync(abs).isDirectory()) {
      for (const name of readdirSync(abs)) if (name !== 'node_modules' && !name.startsWith('.')) walk(`${rel}/${name}`);
    } else if (isSource(rel)) out.push(rel);
  };
  for (const r of ROOTS) walk(r);
  return out.sort();
}

/** The text with comments and template literals blanked, string literals kept (import
 *  specifiers are strings), so `// import x from 'y'` or a '/*' inside a string does not count. */
export function codeOnly(text) {
  let out = '';
  let i = 0;
  let last = ''; // last significant character, to tell a regex literal from a division
  while (i < text.length) {
    const c = text[i];
    const n = text[i + 1];
    if (c === '/' && n === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && n === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
      out += ' ';
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
      last = c;
    } else if (c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== '`') j += text[j] === '\\' ? 2 : 1;
      out += '``';
      i = j + 1;
      last = c;
    } else if (c === '/' && (last === '' || '(,=:[!&|?{};+-*%<>~^'.includes(last))) {
      let j = i + 1;
      let inClass = false;
      while (j < text.length && text[j] !== '\n' && (inClass || text[j] !== '/')) {
        if (text[j] === '\\') j++;
        else if (text[j] === '[') inClass = true;
        else if (text[j] === ']') inClass = false;
        j++;
      }
      out += '/r/';
      i = j + 1;
      last = '/';
    } else {
      out += c;
      if (!/\s/.test(c)) last = c;
      i++;
    }
  }
  return out;
}

const SPECIFIERS = [
  /(?:^|[^\w$.])(?:import|export)\s+(?:type\s+)?[\w$*{}\s,]*?\bfrom\s*(['"])([^'"\n]+)\1/g,
  /(?:^|[^\w$.])import\s*(['"])([^'"\n]+)\1/g,
  /(?:^|[^\w$.])import\s*\(\s*(['"])([^'"\n]+)\1\s*\)/g,
];

export function specifiersOf(text) {
  const code = codeOnly(text);
  const found = new Set();
  for (const re of SPECIFIERS) for (const m of code.matchAll(re)) found.add(m[2]);
  return [...found];
}

function resolveSpecifier(root, from, spec) {
  let base;
  if (spec.startsWith('@/')) base = spec.slice(2);
  else if (spec.startsWith('.')) base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  else return null; // a package
  for (const cand of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
    const abs = path.join(root, cand);
    if (/\.tsx?$/.test(cand) && existsSync(abs) && statSync(abs).isFile()) return cand;
  }
  return null; // CSS, JSON, or something outside the scanned kinds
}

function systemsOf(root) {
  const model = path.join(root, 'lib/brokers/model.ts');
  const m = existsSync(model) && /SYSTEM_KINDS\s*=\s*\[([^\]]*)\]/.exec(readFileSync(model, 'utf8'));
  if (!m) throw new Error('check-layers: SYSTEM_KINDS not found in lib/brokers/model.ts');
  return [...m[1].matchAll(/['"]([\w-]+)['"]/g)].map((x) => x[1]);
}

/** The system whose code `f` is: its folder lib/brokers/<system>/, or a block named for it
 *  (lib/<system>/: potatoq's wire format is lib/potatoq/). */
const systemOf = (systems, f) => {
  const m = /^lib\/(?:brokers\/)?([\w-]+)\//.exec(f);
  return m && systems.includes(m[1]) ? m[1] : null;
};
const isBlock = (f) => BLOCK_PREFIXES.some((p) => f.startsWith(p));
const isService = (f) =>
  !NOT_SERVICES.has(f) && (SERVICE_FILES.has(f) || SERVICE_PATTERN.test(f) || SERVICE_PREFIXES.some((p) => f.startsWith(p)));

/** Strongly connected components with more than one file (or a self-import), Tarjan's way. */
function cyclesOf(graph) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const out = [];
  const visit = (v) => {
    // Iterative, so a deep graph cannot overflow the stack.
    const work = [[v, 0]];
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    while (work.length > 0) {
      const top = work[work.length - 1];
      const [u, k] = top;
      const next = graph.get(u) ?? [];
      if (k < next.length) {
        top[1]++;
        const w = next[k];
        if (!idx.has(w)) {
          idx.set(w, index);
          low.set(w, index++);
          stack.push(w);
          on.add(w);
          work.push([w, 0]);
        } else if (on.has(w)) low.set(u, Math.min(low.get(u), idx.get(w)));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const p = work[work.length - 1][0];
        low.set(p, Math.min(low.get(p), low.get(u)));
      }
      if (low.get(u) === idx.get(u)) {
        const comp = [];
        let w;
        do {
          w = stack.pop();
          on.delete(w);
          comp.push(w);
        } while (w !== u);
        if (comp.length > 1 || (graph.get(u) ?? []).includes(u)) out.push(comp.sort());
      }
    }
  };
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) visit(v);
  return out;
}

/** One cycle through `comp`'s files, as a path a reader can follow (a -> b -> ... -> a). */
function cyclePath(graph, comp) {
  const inComp = new Set(comp);
  const start = comp[0];
  const prev = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const u = queue.shift();
    for (const w of graph.get(u) ?? []) {
      if (!inComp.has(w)) continue;
      if (w === start) {
        const loop = [];
        for (let x = u; x !== null; x = prev.get(x)) loop.unshift(x);
        return [...loop, start];
      }
      if (!prev.has(w)) {
        prev.set(w, u);
        queue.push(w);
      }
    }
  }
  return comp;
}

export function checkLayers(root) {
  const files = listFiles(root);
  const systems = systemsOf(root);
  const graph = new Map();
  const findings = [];
  const baselined = [];
  for (const f of files) {
    const targets = new Set();
    for (const spec of specifiersOf(readFileSync(path.join(root, f), 'utf8'))) {
      const to = resolveSpecifier(root, f, spec);
      if (to && isSource(to)) targets.add(to);
    }
    graph.set(f, [...targets].sort());
  }
  for (const [f, targets] of graph) {
    const sys = systemOf(systems, f);
    for (const to of targets) {
      if ((f.startsWith('lib/') && /^(components|app)\//.test(to)) || (f.startsWith('components/') && to.startsWith('app/')))
        findings.push(`upward   ${f} -> ${to}`);
      if (isBlock(f) && systemOf(systems, to)) baselined.push(`block ${f} -> ${to}`);
      if (!sys) continue;
      const other = systemOf(systems, to);
      if (other && other !== sys) baselined.push(`system ${f} -> ${to}`);
      if (isService(to)) baselined.push(`service ${f} -> ${to}`);
    }
  }
  for (const comp of cyclesOf(graph)) {
    const loop = cyclePath(graph, comp);
    const rest = comp.filter((f) => !loop.includes(f));
    findings.push(`cycle    ${loop.join(' -> ')}${rest.length > 0 ? ` (its ${comp.length} files also: ${rest.join(', ')})` : ''}`);
  }

  const baselineFile = path.join(root, BASELINE);
  const allowed = new Set(
    existsSync(baselineFile)
      ? readFileSync(baselineFile, 'utf8')
          .split('\n')
          .map((l) => l.replace(/#.*/, '').trim().replace(/\s+/g, ' '))
          .filter(Boolean)
      : [],
  );
  const seen = new Set(baselined);
  for (const v of baselined) {
    if (!allowed.has(v)) findings.push(v.replace(/^(\w+) /, (_, r) => `${r.padEnd(8)} `));
  }
  for (const a of allowed) if (!seen.has(a)) findings.push(`fixed    ${a}  (no longer occurs: remove it from ${BASELINE})`);
  return { files: files.length, edges: [...graph.values()].reduce((n, t) => n + t.length, 0), findings, baselined: seen.size };
}

const args = process.argv.slice(2);
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const r = args.indexOf('--root');
  const root = path.resolve(r >= 0 && args[r + 1] ? args[r + 1] : path.join(path.dirname(process.argv[1]), '..'));
  const res = checkLayers(root);
  if (res.findings.length > 0) {
    console.error(`check-layers: ${res.findings.length} finding(s) in ${res.files} files:`);
    for (const f of res.findings) console.error(`  ${f}`);
    process.exit(1);
  }
  console.log(`check-layers: ${res.files} files, ${res.edges} imports, no cycle, no layer crossed (${res.baselined} baselined)`);
}
