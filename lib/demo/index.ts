import 'server-only';
import { getConfig } from '@/lib/config';
import { ensureDemoDatabase, refreshDemoHeartbeat } from './seed';

export { ensureDemoDatabase, refreshDemoHeartbeat } from './seed';

let ensured = false;

/**
 * Creates the demo broker file if the console runs on the embedded demo and it is missing.
 * Boot (instrumentation.ts) calls it; adapters may call it too, e.g. after the file was
 * deleted while the server ran. Cheap after the first call.
 */
export function ensureDemoReady(): void {
  const config = getConfig();
  if (!config.demo || !config.demoPath) return;
  if (ensured && process.env.NODE_ENV === 'production') return;
  ensureDemoDatabase(config.demoPath);
  ensured = true;
}

let timer: NodeJS.Timeout | null = null;

/** Refreshes the demo's live worker heartbeat every 5 s (potatoq's interval) while serving. */
export function startDemoHeartbeat(): void {
  const config = getConfig();
  if (!config.demo || !config.demoPath || timer) return;
  const file = config.demoPath;
  timer = setInterval(() => {
    try {
      refreshDemoHeartbeat(file);
    } catch {
      // The file may be gone or locked for a moment; the next tick tries again.
    }
  }, 5000);
  timer.unref();
}
