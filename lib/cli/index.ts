import type { CliContext } from './command';
import { runPackagedDoctor } from './doctor';
import { main } from './main';
import { startStandaloneServer } from './standalone';

/** The entry bin/potatoq-console.mjs calls (bundled to dist/cli.mjs by scripts/pack-build.mjs). */
export function run(argv: readonly string[], where: { version: string; serverDir: string }): Promise<number> {
  const ctx: CliContext = {
    version: where.version,
    serverDir: where.serverDir,
    env: process.env,
    cwd: process.cwd(),
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    startServer: (options) => startStandaloneServer(where.serverDir, options),
    runDoctor: ({ json }) => runPackagedDoctor(where.serverDir, json),
  };
  return main(argv, ctx);
}
