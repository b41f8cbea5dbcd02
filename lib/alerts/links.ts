import type { AlertTarget } from './schema';

/**
 * The console page that shows what a target watches, filtered to it: the queue's tasks, its
 * dead letters (grouped by error), the schedules tab or the workers. `base` is the console's
 * public address (POTATOQ_CONSOLE_PUBLIC_URL); without it the link is a path.
 */
export function targetLink(t: AlertTarget, base: string | null): string {
  const b = `/brokers/${encodeURIComponent(t.broker)}`;
  const q = t.queue ? `?queue=${encodeURIComponent(t.queue)}` : '';
  let path: string;
  switch (t.kind) {
    case 'deadPerMinute':
    case 'newFingerprint':
      path = `${b}/dead${q}`;
      break;
    case 'missedSchedule':
      path = `${b}/schedules`;
      break;
    case 'noConsumer':
      path = t.queue ? `${b}/queues/${encodeURIComponent(t.queue)}` : `${b}/workers`;
      break;
    case 'oldestWaiting':
    case 'stuck':
      path = t.queue ? `${b}/queues/${encodeURIComponent(t.queue)}` : b;
      break;
    default: {
      const never: never = t.kind;
      return never;
    }
  }
  return base ? `${base.replace(/\/+$/, '')}${path}` : path;
}
