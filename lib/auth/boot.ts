import 'server-only';
import { stateLocation } from '@/lib/state/location';
import { ConfigError } from '@/lib/config-error';
import { checkBind, listeningAddresses, type BindVerdict } from './bind';
import { getAuthConfig } from './config';
import { getHostRule } from './hosts';
import { installPeerTagging } from './peer';

const VERDICT = Symbol.for('potatoq.console.bindVerdict');
type Global = typeof globalThis & { [VERDICT]?: BindVerdict };

/**
 * Boot half of authentication (instrumentation): parse the settings, tag requests with their
 * peer address, and refuse to serve without authentication on a non-loopback address.
 * Exits the process with the field's name on a bad value, like the broker configuration.
 */
export function bootAuth(): void {
  try {
    const config = getAuthConfig();
    stateLocation();
    getHostRule(config.mode);
    installPeerTagging();
    (globalThis as Global)[VERDICT] = checkBind(config, listeningAddresses());
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`potatoq console: bad configuration: ${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
}

/** The banner for mode none off loopback, computed at boot (null before boot or when safe). */
export function insecureBanner(): string | null {
  return (globalThis as Global)[VERDICT]?.insecureBanner ?? null;
}
