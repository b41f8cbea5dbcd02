import 'server-only';
import { ConfigError } from '@/lib/config-error';
import { consoleEnv } from '@/lib/config-file/env';
import { rememberSecret } from '@/lib/text/secrets';
import { ZAlertsConfig, type AlertsConfig } from './schema';

// POTATOQ_CONSOLE_ALERTS (the config file's `alerts`): queue-health targets, checked by the
// same schema as the targets page; a bad one stops startup naming the field
// (`/etc/console.yaml: alerts.targets[0].threshold: …` when it came from the file).
// POTATOQ_CONSOLE_PUBLIC_URL is the address the alert links start with.

const NAME = 'POTATOQ_CONSOLE_ALERTS';

export interface AlertSettings extends AlertsConfig {
  /** The console's public address, without a trailing slash; null: links are paths. */
  publicUrl: string | null;
}

const pathOf = (path: readonly PropertyKey[]) => path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');

export function parseAlertSettings(env: Record<string, string | undefined>, brokerIds: readonly string[]): AlertSettings {
  const raw = env[NAME]?.trim();
  let tree: unknown = {};
  if (raw) {
    try {
      tree = JSON.parse(raw);
    } catch {
      throw new ConfigError(`${NAME}: must be a JSON object ({"targets": [...]})`);
    }
  }
  const r = ZAlertsConfig.safeParse(tree);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw new ConfigError(`${NAME}${pathOf(issue.path)}: ${issue.message}`);
  }
  r.data.targets.forEach((t, i) => {
    if (!brokerIds.includes(t.broker))
      throw new ConfigError(
        `${NAME}.targets[${i}].broker: no broker "${t.broker.slice(0, 80)}" is configured (known: ${brokerIds.join(', ')})`,
      );
  });
  const url = env.POTATOQ_CONSOLE_PUBLIC_URL?.trim() || null;
  if (url && !/^https?:\/\/[^\s/]+/.test(url))
    throw new ConfigError('POTATOQ_CONSOLE_PUBLIC_URL: must be the http(s) address users open, e.g. https://queues.example.com');
  return { ...r.data, publicUrl: url ? url.replace(/\/+$/, '') : null };
}

let cached: AlertSettings | null = null;

/** The configured targets, read once. */
export async function getAlertSettings(): Promise<AlertSettings> {
  if (cached) return cached;
  const { brokerList } = await import('@/lib/brokers/service');
  cached = parseAlertSettings(
    consoleEnv(),
    brokerList().map((b) => b.id),
  );
  // The webhook's address and secret are hidden in every log line from now on.
  rememberSecret(cached.webhook?.url);
  rememberSecret(cached.webhook?.secret);
  return cached;
}

/** Boot: a bad target stops the server naming the field. */
export async function bootAlerts(): Promise<void> {
  try {
    await getAlertSettings();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`potatoq console: bad configuration: ${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
}
