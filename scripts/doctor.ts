// `npm run doctor -- [--config FILE] [--json]`: checks every configured broker (lib/doctor) and
// prints a verdict per broker. Exit 0: none unusable; 1: at least one unusable; 2: the
// configuration itself is bad (named by file and field, or by variable). Runs the server's
// own modules through vite-node (the `@/` paths, `server-only`), as the benchmarks do. The
// packaged `potatoq-console doctor` (lib/cli/doctor.ts) runs the same lib/doctor/command.ts.
import { runDoctorCommand } from '@/lib/doctor/command';

function parseArgs(argv: string[]): { config: string | null; json: boolean } {
  let config: string | null = null;
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--json') json = true;
    else if (a === '--config') config = argv[++i] ?? null;
    else if (a.startsWith('--config=')) config = a.slice('--config='.length);
    else if (a === '--') continue;
    else {
      process.stderr.write(`doctor: unknown argument ${JSON.stringify(a)} (use --config FILE, --json)\n`);
      process.exit(2);
    }
  }
  return { config, json };
}

const args = parseArgs(process.argv.slice(2));
if (args.config) process.env.POTATOQ_CONSOLE_CONFIG = args.config;
runDoctorCommand({
  json: args.json,
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
}).then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`doctor: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(2);
  },
);
