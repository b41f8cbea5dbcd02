#!/usr/bin/env node
// The npm package's command. The CLI itself is lib/cli/ (TypeScript), bundled to dist/cli.mjs
// with the standalone server in dist/server by scripts/pack-build.mjs (`npm pack` runs it).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const cli = path.join(root, 'dist', 'cli.mjs');
if (!fs.existsSync(cli)) {
  process.stderr.write('potatoq-console: this checkout has no build of the command; run "npm run pack:build" first\n');
  process.exit(1);
}
const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const { run } = await import(pathToFileURL(cli).href);
process.exitCode = await run(process.argv.slice(2), { version, serverDir: path.join(root, 'dist', 'server') });
