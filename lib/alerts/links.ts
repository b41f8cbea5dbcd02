import { BROKER_KINDS, type AlertTarget } from './schema';

/** What a target watches, in words: `broker/queue` (`sep` between them), the broker's every
 *  queue, or the broker itself. */
export function targetWhere(t: AlertTarget, sep = '/'): string {
  if (BROKER_KINDS.includes(t.kind)) return t.broker;
  return t.queue ? `${t.broker}${sep}${t.queue}` : `${t.broker} (every queue)`;
}

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
    case 'unreachable':
      path = b;
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
