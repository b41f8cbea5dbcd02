// Builds what the npm package ships (`npm pack` runs this as `prepack`; `npm run pack:build`):
//   dist/server/  Next's standalone server (POTATOQ_CONSOLE_STANDALONE=1 in next.config.mjs,
//                 built into .next-pack so a dev or e2e build in .next is left alone), with its
//                 static files, public/ and next-config.json (what its server.js would pass)
//   dist/server/doctor.cjs  lib/doctor/command.ts bundled for `potatoq-console doctor`: the npm
//                 packages the server carries in dist/server/node_modules (its drivers) stay
//                 external and resolve from there, better-sqlite3 from the package's dependency;
//                 the rest (zod, js-yaml, and the drivers Next bundled into its chunks: ioredis,
//                 amqplib, mysql2 with Next 16.4) is bundled in, so the command adds no dependency
//   dist/cli.mjs  lib/cli/ bundled for bin/potatoq-console.mjs
// Native modules are not shipped: better-sqlite3 is the package's one dependency, installed
// (prebuilt or compiled) for the platform by npm; sharp (Next's image optimiser, unused: images
// are unoptimized) is dropped. POTATOQ_PACK_REUSE_BUILD=1 skips `next build` when .next-pack
// has a standalone build already (to iterate on the packaging itself).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const distDirName = '.next-pack';
const build = path.join(root, distDirName);
const standalone = path.join(build, 'standalone');
const dist = path.join(root, 'dist');
const server = path.join(dist, 'server');
// Installed by npm for the platform (better-sqlite3 and what loads its binary), or not needed.
const NOT_SHIPPED = ['better-sqlite3', 'bindings', 'file-uri-to-path', 'prebuild-install', 'sharp', '@img'];

function step(text) {
  process.stderr.write(`pack-build: ${text}\n`);
}

function nextBuild() {
  // `next build` adds its type folders for a new distDir to tsconfig.json: keep the file as it was.
  const tsconfig = path.join(root, 'tsconfig.json');
  const before = fs.readFileSync(tsconfig, 'utf8');
  try {
    execFileSync(process.execPath, [path.join(root, 'node_modules/next/dist/bin/next'), 'build'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, POTATOQ_CONSOLE_STANDALONE: '1', NEXT_DIST_DIR: distDirName, NEXT_TELEMETRY_DISABLED: '1' },
    });
  } finally {
    if (fs.readFileSync(tsconfig, 'utf8') !== before) fs.writeFileSync(tsconfig, before);
  }
}

/** Turbopack names externals `<package>-<hash>` and links them into <distDir>/node_modules;
 *  npm packs no symlinks, so each link becomes a one-line package requiring the real one. */
function replaceExternalLinks(dir, top = dir) {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const at = path.join(dir, entry.name);
    if (entry.isDirectory() && entry.name.startsWith('@')) {
      replaceExternalLinks(at, top);
      continue;
    }
    if (!entry.isSymbolicLink()) continue;
    const target = fs.readlinkSync(at).split(path.sep).join('/');
    const i = target.lastIndexOf('node_modules/');
    if (i < 0) throw new Error(`pack-build: unexpected external link ${at} -> ${target}`);
    const pkg = target.slice(i + 'node_modules/'.length);
    fs.rmSync(at);
    fs.mkdirSync(at);
    const name = path.relative(top, at).split(path.sep).join('/');
    fs.writeFileSync(path.join(at, 'package.json'), `${JSON.stringify({ name, private: true, main: 'index.js' })}\n`);
    fs.writeFileSync(path.join(at, 'index.js'), `module.exports = require(${JSON.stringify(pkg)});\n`);
  }
}

function savedConfig() {
  const text = fs.readFileSync(path.join(standalone, 'server.js'), 'utf8');
  const m = /^const nextConfig = (.*)$/m.exec(text);
  if (!m) throw new Error('pack-build: no nextConfig line in the standalone server.js (did Next change its shape?)');
  return JSON.parse(m[1]);
}

if (!(process.env.POTATOQ_PACK_REUSE_BUILD === '1' && fs.existsSync(path.join(standalone, 'server.js')))) {
  step('next build (standalone, in .next-pack)');
  nextBuild();
}
step('assembling dist/server');
fs.rmSync(dist, { recursive: true, force: true });
fs.cpSync(standalone, server, { recursive: true, verbatimSymlinks: true });
fs.cpSync(path.join(build, 'static'), path.join(server, distDirName, 'static'), { recursive: true });
if (fs.existsSync(path.join(root, 'public'))) fs.cpSync(path.join(root, 'public'), path.join(server, 'public'), { recursive: true });
for (const name of NOT_SHIPPED) fs.rmSync(path.join(server, 'node_modules', name), { recursive: true, force: true });
replaceExternalLinks(path.join(server, distDirName, 'node_modules'));
// Next's copy of the root package.json: only its module type matters here.
fs.writeFileSync(path.join(server, 'package.json'), `${JSON.stringify({ private: true, type: 'commonjs' })}\n`);
fs.writeFileSync(path.join(server, 'next-config.json'), `${JSON.stringify(savedConfig())}\n`);
// Not used: the command starts the server itself (lib/cli/standalone.ts), without its chdir.
fs.rmSync(path.join(server, 'server.js'));
fs.writeFileSync(
  path.join(server, 'server.js'),
  '// Anchor for module resolution (lib/cli/standalone.ts); start with bin/potatoq-console.mjs.\n',
);

// npm packs no symlinks: one left would be a file missing from the installed server.
const links = fs
  .readdirSync(server, { recursive: true, withFileTypes: true })
  .filter((e) => e.isSymbolicLink())
  .map((e) => path.relative(server, path.join(e.parentPath, e.name)));
if (links.length) throw new Error(`pack-build: symlinks npm would drop: ${links.slice(0, 5).join(', ')}`);

const esbuild = await import('esbuild');
step('bundling the doctor (dist/server/doctor.cjs)');
await bundleDoctor();
step('bundling the command (dist/cli.mjs)');
await esbuild.build({
  entryPoints: [path.join(root, 'lib/cli/index.ts')],
  outfile: path.join(dist, 'cli.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  tsconfig: path.join(root, 'tsconfig.json'),
  // Commands may reach server code (lib/config.ts, adapters): its guard is for client bundles.
  alias: { 'server-only': path.join(root, 'node_modules/server-only/empty.js') },
  // The native driver comes from the package's dependencies, installed for the platform.
  external: ['better-sqlite3'],
  // Bundled CommonJS packages call require(); an ES module has none of its own.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
});
step('done');

/** Top-level package names in a node_modules folder (`pg`, `@scope/name`). */
function packagesIn(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name.startsWith('.')) return [];
    if (!e.name.startsWith('@')) return [e.name];
    return fs.readdirSync(path.join(dir, e.name)).map((n) => `${e.name}/${n}`);
  });
}

async function bundleDoctor() {
  const outfile = path.join(server, 'doctor.cjs');
  const result = await esbuild.build({
    entryPoints: [path.join(root, 'lib/doctor/command.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    // CommonJS: the server's packages are CommonJS, required as the server requires them.
    format: 'cjs',
    target: 'node20',
    tsconfig: path.join(root, 'tsconfig.json'),
    alias: { 'server-only': path.join(root, 'node_modules/server-only/empty.js') },
    // esbuild takes `pg` to cover `pg/lib/...` too.
    external: ['better-sqlite3', ...packagesIn(path.join(server, 'node_modules'))],
    metafile: true,
    logLevel: 'warning',
  });
  // Every package left external (but the dependency) must resolve inside dist/server, or the
  // installed command would fail on the first broker of that kind: stop the build instead.
  // (Here Node would also look up into the checkout's node_modules, which no user has.)
  const load = createRequire(outfile);
  const inside = path.join(server, 'node_modules') + path.sep;
  const missing = [];
  for (const out of Object.values(result.metafile.outputs))
    for (const i of out.imports) {
      if (!i.external || isBuiltin(i.path) || i.path === 'better-sqlite3') continue;
      let at = '';
      try {
        at = load.resolve(i.path);
      } catch {}
      if (!at.startsWith(inside)) missing.push(i.path);
    }
  if (missing.length) throw new Error(`pack-build: the doctor needs ${[...new Set(missing)].join(', ')}, not in dist/server/node_modules`);
  if (typeof load(outfile).runDoctorCommand !== 'function') throw new Error('pack-build: dist/server/doctor.cjs has no runDoctorCommand');
}
