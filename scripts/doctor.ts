// `npm run doctor -- [--config FILE] [--json]`: checks every configured broker (lib/doctor) and
// prints a verdict per broker. Exit 0: none unusable; 1: at least one unusable; 2: the
// configuration itself is bad (named by file and field, or by variable). Runs the server's
// own modules through vite-node (the `@/` paths, `server-only`), as the benchmarks do.
import { installLogRedaction } from '@/lib/text/log-redaction';

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

async function main(): Promise<number> {
  installLogRedaction();
  const args = parseArgs(process.argv.slice(2));
  if (args.config) process.env.POTATOQ_CONSOLE_CONFIG = args.config;
  const { ConfigError, getConfig } = await import('@/lib/config');
  try {
    getConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`doctor: bad configuration: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  const { runDoctor } = await import('@/lib/doctor/run');
  const { formatDoctorTable } = await import('@/lib/doctor/table');
  const brokers = await runDoctor();
  process.stdout.write(args.json ? `${JSON.stringify({ brokers }, null, 2)}\n` : formatDoctorTable(brokers));
  return brokers.some((b) => b.verdict === 'unusable') ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`doctor: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(2);
  },
);
