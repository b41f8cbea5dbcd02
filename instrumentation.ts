// Next.js boot hook: runs once when the server starts, before it serves a request.
// A bad configuration stops the server here, naming the field, instead of failing on the
// first page view.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { getConfig, ConfigError } = await import('@/lib/config');
  try {
    getConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`potatoq console: bad configuration: ${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
  const { ensureDemoReady, startDemoHeartbeat } = await import('@/lib/demo');
  ensureDemoReady();
  startDemoHeartbeat();
}
