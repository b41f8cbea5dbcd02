// Next.js boot hook: runs once when the server starts, before it serves a request, so a bad
// configuration stops the server here instead of failing on the first page view. The Node
// code sits behind the runtime check so the Edge bundle never sees it.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    // First: every log line from here on goes through the one redaction step.
    const { installLogRedaction } = await import('@/lib/text/log-redaction');
    installLogRedaction();
    // Then: an error nothing handled is logged (redacted) and counted, never the end of the process.
    const { installUncaughtGuard } = await import('@/lib/metrics/uncaught');
    installUncaughtGuard();
    const { bootAuth } = await import('@/lib/auth/boot');
    bootAuth();
    // The polled JSON reads, answered before Next's routing after the same gate (production only).
    const { installFastReads } = await import('@/lib/http/fast-reads');
    installFastReads();
    const { bootConsole } = await import('@/lib/demo/boot');
    bootConsole();
    // Not awaited: a slow or refused broker never delays the server; it is named in the log.
    const { bootCheck } = await import('@/lib/brokers/service');
    void bootCheck().then((refused) => {
      for (const r of refused)
        process.stderr.write(
          `potatoq console: broker "${r.id}" ${r.code === 'Unsupported' ? 'is refused' : 'is not available yet'} (${r.code}): ${r.message}
`,
        );
    });
    const { bootMetrics } = await import('@/lib/metrics/config');
    bootMetrics();
    const { bootAlerts } = await import('@/lib/alerts/config');
    await bootAlerts();
    // Targets are evaluated (and the webhook sent) with nobody viewing: one evaluator per process.
    const { startAlertEvaluator } = await import('@/lib/alerts/evaluator');
    startAlertEvaluator();
    const { bootTrends } = await import('@/lib/trends/boot');
    bootTrends();
    // Open campaigns are followed whether or not anyone looks (lib/campaigns/background.ts).
    const { bootCampaignFollower } = await import('@/lib/campaigns/boot');
    bootCampaignFollower();
  }
}
