// `npm run bench:package [-- <tarball>]`: what installing and starting the npm package costs,
// the numbers in docs/install.md. Packs the checkout (a standalone build) unless given a
// tarball, installs it with `npm install -g --prefix <temp>` (better-sqlite3 from the registry;
// the checkout's binary offered as a local prebuild, as tests/package/pack.int.test.ts does —
// set BENCH_COMPILE=1 to time a compile instead), then starts the installed command RUNS times
// (default 5) in each case and times spawn → first 200 on /api/health:
//   demo, cold   a fresh directory: the demo broker file is created and seeded at boot
//   demo, warm   the same directory again
//   serve        `serve` on one SQLite broker (POTATOQ_CONSOLE_BROKERS), state file existing
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../tests/support/free-port';
import { cleanEnv, folderBytes, installTarball, localPrebuildEnv, packTarball, startAndWait, stop } from '../tests/support/package';

const runs = Number(process.env.RUNS ?? 5);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-package-'));
const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

async function time(label: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, fresh: () => void): Promise<string> {
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    fresh();
    const port = await freePort();
    const s = await startAndWait(bin, [...args, '--port', String(port)], {
      cwd,
      env,
      url: `http://127.0.0.1:${port}/api/health`,
      timeoutMs: 60_000,
    });
    ms.push(s.ms);
    await stop(s.child);
  }
  ms.sort((a, b) => a - b);
  return `| ${label} | ${ms[Math.floor(ms.length / 2)]!.toFixed(0)} | ${ms[0]!.toFixed(0)}–${ms[ms.length - 1]!.toFixed(0)} |`;
}

let t = performance.now();
const tarball = process.argv[2] ? path.resolve(process.argv[2]) : await packTarball(work, 15 * 60_000);
const packS = (performance.now() - t) / 1000;
t = performance.now();
const env = process.env.BENCH_COMPILE === '1' ? {} : await localPrebuildEnv(path.join(work, 'prebuilds'));
const prefix = path.join(work, 'prefix');
const bin = await installTarball(tarball, prefix, env, 15 * 60_000);
const installS = (performance.now() - t) / 1000;
const pkg = path.join(prefix, 'lib/node_modules/potatoq-console');

const cwd = path.join(work, 'cwd');
const freshDir = () => {
  fs.rmSync(cwd, { recursive: true, force: true });
  fs.mkdirSync(cwd);
};
const rows = [
  await time('`demo`, cold (creates and seeds the demo broker)', ['demo'], cwd, cleanEnv(), freshDir),
  await time('`demo`, warm (files exist)', ['demo'], cwd, cleanEnv(), () => undefined),
  await time(
    '`serve`, one SQLite broker',
    ['serve'],
    cwd,
    cleanEnv({ POTATOQ_CONSOLE_BROKERS: `sqlite:///${path.join(cwd, '.data/demo.sqlite3')}` }),
    () => undefined,
  ),
];
console.log(`node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), ${runs} runs each`);
console.log(
  `tarball ${mb(fs.statSync(tarball).size)}${process.argv[2] ? '' : ` (npm pack${process.env.POTATOQ_PACK_REUSE_BUILD === '1' ? ', reusing the build' : ' with the build'}: ${packS.toFixed(0)} s)`}, install ${installS.toFixed(0)} s`,
);
console.log(
  `installed: ${mb(folderBytes(prefix))} in the prefix = package ${mb(folderBytes(path.join(pkg, 'dist')))} (dist/: server and command) + dependencies ${mb(folderBytes(path.join(pkg, 'node_modules')))}`,
);
console.log('\n| start-up (spawn → first 200 on /api/health) | median ms | range ms |\n|---|---|---|');
console.log(rows.join('\n'));
fs.rmSync(work, { recursive: true, force: true });
