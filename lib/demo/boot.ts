import { ConfigError, getConfig } from '@/lib/config';
import { ensureDemoReady, startDemoHeartbeat } from '@/lib/demo';

/**
 * Node-side boot: parse the configuration once and stop the server on a bad value, naming
 * the field (`potatoq console: bad configuration: POTATOQ_CONSOLE_BROKERS[1].url: ...`), then
 * create the embedded demo broker when that is what is served.
 */
export function bootConsole(): void {
  try {
    getConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`potatoq console: bad configuration: ${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
  ensureDemoReady();
  startDemoHeartbeat();
}
