import 'server-only';
import { ConfigError } from '@/lib/config-error';
import { installLogRedaction } from '@/lib/text/log-redaction';
import { redactSecrets } from '@/lib/text/secrets';

/**
 * The doctor as a command, shared by `npm run doctor` (scripts/doctor.ts, through vite-node) and
 * the packaged `potatoq-console doctor` (this file is bundled to dist/server/doctor.cjs by
 * scripts/pack-build.mjs and loaded at run time). The configuration comes from the environment
 * (POTATOQ_CONSOLE_CONFIG set by the caller). Exit codes: 0 no broker unusable, 1 one is,
 * 2 the configuration itself is bad (named by file and field, or by variable), or the doctor
 * itself failed (its message redacted).
 */
export interface DoctorCommandIo {
  json: boolean;
  out: (text: string) => void;
  err: (text: string) => void;
}

export async function runDoctorCommand({ json, out, err }: DoctorCommandIo): Promise<number> {
  // A driver's own warning still passes the console's redaction.
  installLogRedaction();
  try {
    // Imported here, not above: the configuration is read once, after the caller set the variables.
    const { getConfig } = await import('@/lib/config');
    getConfig();
    const { runDoctor } = await import('@/lib/doctor/run');
    const { formatDoctorTable } = await import('@/lib/doctor/table');
    const brokers = await runDoctor();
    out(json ? `${JSON.stringify({ brokers }, null, 2)}\n` : formatDoctorTable(brokers));
    return brokers.some((b) => b.verdict === 'unusable') ? 1 : 0;
  } catch (e) {
    if (e instanceof ConfigError) err(`doctor: bad configuration: ${e.message}\n`);
    else err(`doctor: ${redactSecrets(e instanceof Error ? e.message : String(e))}\n`);
    return 2;
  }
}
