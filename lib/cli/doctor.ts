import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { UsageError } from './args';
import type { Command } from './command';

export const doctorCommand: Command = {
  summary: 'check every configured broker and print whether the console can use it',
  flags: {
    config: { placeholder: 'FILE', help: 'configuration file (sets POTATOQ_CONSOLE_CONFIG; environment variables override it)' },
    json: { placeholder: null, help: 'print {"brokers": [...]} as JSON instead of the table' },
  },
  details:
    'Connects to each broker as the server would (its timeouts, its read-only rule), runs the\n' +
    "adapter's access checks and gives a verdict: usable, degraded or UNUSABLE, with why.\n" +
    'Exit 0 when no broker is unusable, 1 when one is, 2 when the configuration is bad.\n' +
    'Credentials are never printed.',
  async run(flags, ctx) {
    if (flags.config) {
      const file = path.resolve(ctx.cwd, flags.config);
      if (!fs.statSync(file, { throwIfNoEntry: false })?.isFile()) throw new UsageError(`doctor: --config: no such file "${file}"`);
      ctx.env.POTATOQ_CONSOLE_CONFIG = file;
    }
    return ctx.runDoctor({ json: flags.json === 'true' });
  },
};

interface DoctorModule {
  runDoctorCommand: (io: { json: boolean; out: (text: string) => void; err: (text: string) => void }) => Promise<number>;
}

/**
 * Loads the doctor bundled beside the standalone server (scripts/pack-build.mjs): its drivers
 * (pg, ioredis, ...) resolve from dist/server/node_modules, better-sqlite3 from the package's
 * own dependencies, so the command needs no dependency of its own. Run in the command's process
 * with the environment it was given.
 */
export async function runPackagedDoctor(serverDir: string, json: boolean): Promise<number> {
  const file = path.join(serverDir, 'doctor.cjs');
  if (!fs.existsSync(file))
    throw new Error(`no prebuilt doctor at ${file} (a checkout builds it with "npm run pack:build", or runs "npm run doctor")`);
  const doctor = createRequire(file)(file) as DoctorModule;
  try {
    return await doctor.runDoctorCommand({
      json,
      out: (text) => void process.stdout.write(text),
      err: (text) => void process.stderr.write(text),
    });
  } finally {
    // The brokers' pools and sockets stay open after the checks: end the process once the
    // answer is written out (a pipe is asynchronous on some systems), with the exit code
    // bin/potatoq-console.mjs set by then.
    process.stdout.write('', () => process.stderr.write('', () => setTimeout(() => process.exit(), 100).unref()));
  }
}
