import { nameSettingOrigin } from '@/lib/config-origins';
import { redactSecrets } from '@/lib/text/secrets';

/**
 * A bad setting found at boot: the message names the variable or field, and boot stops. A leaf
 * module (every layer that reads a setting throws it; lib/config.ts imports the systems, so
 * nothing below it may import lib/config.ts for this). A setting that came from the config file
 * is named by the file and its field instead of the variable (lib/config-origins.ts). Its
 * message never shows a secret from the configuration (lib/text/secrets.ts).
 */
export class ConfigError extends Error {
  constructor(message: string) {
    super(redactSecrets(nameSettingOrigin(message)));
    this.name = 'ConfigError';
  }
}
